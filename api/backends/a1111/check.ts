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

const stem = (name: string) => name.replace(/\.[a-z]+$/i, '').toLowerCase();

/** "it has: a, b, c" (or "it has none"), with a guess when one name is close (or the same file by another extension). */
function has(name: string, names: readonly string[]): string {
  if (names.length === 0) return 'it has none';
  const guess = names.find((n) => stem(n) === stem(name)) ?? closestName(name, names);
  const shown = names.slice(0, SHOWN).join(', ') + (names.length > SHOWN ? ` and ${names.length - SHOWN} more` : '');
  return `${guess === undefined ? '' : `did you mean '${guess}'? `}it has: ${shown}`;
}

const missing = (need: NeededName, what: string, names: readonly string[]): FieldIssue => ({
  path: need.field,
  message: `AUTOMATIC1111 has no ${what} '${need.name}'; ${has(need.name, names)}`,
});

export async function checkNames(t: Translation, lists: ServerLists, options: RequestOptions): Promise<FieldIssue[]> {
  const { needs, payload } = t;
  const none: FieldIssue[] = [];
  const checks: Promise<FieldIssue[]>[] = [];

  checks.push(lists.samplers(options).then((samplers) => {
    const sampler = String(payload.sampler_name);
    return samplers.has(sampler) ? none : [missing({ field: 'sampler', name: sampler }, 'sampler', [...samplers])];
  }));
  checks.push(lists.schedulers(options).then((schedulers) => {
    if (schedulers === undefined) {
      return [{ path: 'sampler', message: 'this server has no /sdapi/v1/schedulers (AUTOMATIC1111 before 1.9, or another server with a look-alike API), so the sampler\'s schedule cannot be chosen; update it to 1.9 or later' }];
    }
    const scheduler = String(payload.scheduler);
    return schedulers.has(scheduler) ? none : [missing({ field: 'sampler', name: scheduler }, 'schedule', [...schedulers])];
  }));
  if (needs.checkpoint !== undefined || needs.refiner !== undefined) {
    checks.push(lists.checkpoints(options).then((models) => {
      const ids = new Set(models.flatMap(checkpointIds));
      const labels = models.map(checkpointLabel);
      return [needs.checkpoint, needs.refiner].flatMap((need) => (need === undefined || ids.has(need.name) ? [] : [missing(need, 'checkpoint', labels)]));
    }));
  }
  const { vae } = needs;
  if (vae !== undefined) {
    checks.push(lists.vaes(options).then((vaes) => (['Automatic', 'None', ...vaes].includes(vae.name) ? none : [missing(vae, 'VAE', vaes)])));
  }
  if (needs.loras.length > 0) {
    checks.push(lists.loras(options).then((loras) => {
      if (loras === undefined) {
        return needs.loras.map((need) => ({ path: need.field, message: 'AUTOMATIC1111 takes no LoRAs here: its built-in Lora extension is turned off' }));
      }
      const known = new Set(loras.flatMap((l) => [l.name, ...(l.alias ? [l.alias] : [])]));
      return needs.loras.filter((need) => !known.has(need.name)).map((need) => missing(need, 'LoRA', loras.map((l) => l.name)));
    }));
  }
  if (needs.embeddings.length > 0) {
    checks.push(lists.embeddings(options).then(({ loaded, skipped }) => needs.embeddings.flatMap((need) => {
      if (loaded.includes(need.name) || (needs.checkpointChanges && skipped.includes(need.name))) return [];
      return [skipped.includes(need.name)
        ? { path: need.field, message: `AUTOMATIC1111 skips the embedding '${need.name}' with the checkpoint it has loaded (it was made for another model family)` }
        : missing(need, 'embedding', loaded)];
    })));
  }
  const { controlnet } = needs;
  if (controlnet !== undefined) {
    checks.push(lists.controlnets(options).then((models) => {
      if (models === undefined) {
        return [{ path: controlnet.field, message: 'AUTOMATIC1111 has no ControlNet: install the sd-webui-controlnet extension (Forge has it built in)' }];
      }
      // The extension also finds a model by its name without the hash, in any case.
      const named = models.includes(controlnet.name) || models.some((m) => m.replace(/ \[[^\]]*\]$/, '').toLowerCase() === controlnet.name.toLowerCase());
      return named ? none : [missing(controlnet, 'ControlNet model', models)];
    }));
  }
  // In the order of the request's fields, whichever list came back first.
  return (await Promise.all(checks)).flat();
}
