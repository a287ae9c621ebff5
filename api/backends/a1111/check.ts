/**
 * The names a request needs, checked against what the server has before anything is sent.
 *
 * AUTOMATIC1111 does not refuse a name it lacks; it quietly does something else:
 * - a checkpoint in `override_settings` that it cannot find is dropped and the loaded model runs
 *   (modules/processing.py `process_images`), and a VAE it cannot find becomes none
 *   (modules/sd_vae.py);
 * - an unknown sampler becomes its default one and an unknown schedule `Automatic`
 *   (modules/sd_samplers.py `get_sampler_and_scheduler`);
 * - a `<lora:…>` or embedding it lacks is left out, with at most a line in its console
 *   (extensions-builtin/Lora/networks.py);
 * - a refiner or ControlNet model name is matched loosely, by the first name that contains it
 *   (`get_closet_checkpoint_match`; the extension's `find_closest_lora_model_name`).
 * Each would give a picture other than the one asked for, without a word; so each is refused
 * here, with the names the server does have.
 */
import { closestName } from '../../closest-name';
import type { RequestOptions } from '../../http';
import type { FieldIssue } from '../../issues';
import { checkpointIds, checkpointLabel, type ServerLists } from './lists';
import type { NeededName, Translation } from './translate';

const SHOWN = 20;

/** "it has: a, b, c" (or "it has none"), with a guess when one name is close. */
function has(name: string, names: readonly string[]): string {
  if (names.length === 0) return 'it has none';
  const guess = closestName(name, names);
  const shown = names.slice(0, SHOWN).join(', ') + (names.length > SHOWN ? ` and ${names.length - SHOWN} more` : '');
  return `${guess === undefined ? '' : `did you mean '${guess}'? `}it has: ${shown}`;
}

const missing = (need: NeededName, what: string, names: readonly string[]): FieldIssue => ({
  path: need.field,
  message: `AUTOMATIC1111 has no ${what} '${need.name}'; ${has(need.name, names)}`,
});

export async function checkNames(t: Translation, lists: ServerLists, options: RequestOptions): Promise<FieldIssue[]> {
  const issues: FieldIssue[] = [];
  const { needs, payload } = t;
  const checks: Promise<void>[] = [];

  checks.push(lists.samplers(options).then((samplers) => {
    const sampler = String(payload.sampler_name);
    if (!samplers.has(sampler)) issues.push(missing({ field: 'sampler', name: sampler }, 'sampler', [...samplers]));
  }));
  checks.push(lists.schedulers(options).then((schedulers) => {
    if (schedulers === undefined) {
      issues.push({ path: 'sampler', message: 'this AUTOMATIC1111 is older than 1.9: it has no schedule setting (/sdapi/v1/schedulers), so the sampler\'s schedule cannot be chosen; update it' });
    } else if (!schedulers.has(String(payload.scheduler))) {
      issues.push(missing({ field: 'sampler', name: String(payload.scheduler) }, 'schedule', [...schedulers]));
    }
  }));
  if (needs.checkpoint !== undefined || needs.refiner !== undefined) {
    checks.push(lists.checkpoints(options).then((models) => {
      const ids = new Set(models.flatMap(checkpointIds));
      const labels = models.map(checkpointLabel);
      for (const need of [needs.checkpoint, needs.refiner]) {
        if (need !== undefined && !ids.has(need.name)) issues.push(missing(need, 'checkpoint', labels));
      }
    }));
  }
  if (needs.vae !== undefined) {
    const need = needs.vae;
    checks.push(lists.vaes(options).then((vaes) => {
      if (!['Automatic', 'None', ...vaes].includes(need.name)) issues.push(missing(need, 'VAE', vaes));
    }));
  }
  if (needs.loras.length > 0) {
    checks.push(lists.loras(options).then((loras) => {
      const known = new Set(loras.flatMap((l) => [l.name, ...(l.alias ? [l.alias] : [])]));
      for (const need of needs.loras) if (!known.has(need.name)) issues.push(missing(need, 'LoRA', loras.map((l) => l.name)));
    }));
  }
  if (needs.embeddings.length > 0) {
    checks.push(lists.embeddings(options).then(({ loaded, skipped }) => {
      for (const need of needs.embeddings) {
        if (loaded.includes(need.name) || (needs.checkpointChanges && skipped.includes(need.name))) continue;
        issues.push(skipped.includes(need.name)
          ? { path: need.field, message: `AUTOMATIC1111 skips the embedding '${need.name}' with the checkpoint it has loaded (it was made for another model family)` }
          : missing(need, 'embedding', loaded));
      }
    }));
  }
  if (needs.controlnet !== undefined) {
    const need = needs.controlnet;
    checks.push(lists.controlnets(options).then((models) => {
      if (models === undefined) {
        issues.push({ path: need.field, message: 'AUTOMATIC1111 has no ControlNet: install the sd-webui-controlnet extension (Forge has it built in)' });
        return;
      }
      // The extension also finds a model by its name without the hash, in any case.
      const exact = models.includes(need.name) || models.some((m) => m.replace(/ \[[^\]]*\]$/, '').toLowerCase() === need.name.toLowerCase());
      if (!exact) issues.push(missing(need, 'ControlNet model', models));
    }));
  }
  await Promise.all(checks);
  return issues;
}
