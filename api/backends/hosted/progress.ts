/**
 * Progress from a model's logs: both fal's runners and Replicate's cog models print diffusers'
 * tqdm bar ("52%|█████▏    | 13/25 [00:01<00:01, 11.2it/s]"); the last one read is the step.
 */

/** "step 13 of 25" from the last progress bar in `lines`, or undefined when there is none. */
export function progressFromLogs(lines: readonly string[]): { fraction: number; message: string } | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const bars = [...lines[i]!.matchAll(/\|\s*(\d+)\/(\d+)\s*\[/g)];
    const match = bars.at(-1);
    if (match === undefined) continue;
    const done = Number(match[1]);
    const total = Number(match[2]);
    if (total > 0 && done <= total) return { fraction: done / total, message: `step ${done} of ${total}` };
  }
  return undefined;
}
