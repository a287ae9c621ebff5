/**
 * "Did you mean": the known name closest to a misspelt one (a style preset, say). Apart from
 * issues.ts so the request schemas, which use it in an error message, do not bring the rest.
 */

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost));
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/** The known name closest to a misspelt one, when it is close enough to be the likely intent. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  if (name.length > 64) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(name.length / 4)) ? best : undefined;
}
