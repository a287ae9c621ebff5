/**
 * Writing a run's outputs: images (base64 decoded to bytes, extension from the mime type; the
 * bytes as the service sent them unless `imageBytes` adds to them), texts as .txt, named
 * `<node-id>-<port>[-<index>].<ext>`; an item of a node that runs once per item is
 * `<node-id>-<port>-<item>[-<index>]`, written as soon as the item ends.
 *
 * A value already written in this run is not written again: a node's `image` is the first of
 * its `images`, and a Preview shows what its upstream made, so both point at the existing file.
 * A Preview with a file name set is a request to save under that name, and always gets its file.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImageData, Value } from '../nodes/types';
import { mimeExtension } from '../nodes/values';
import type { NodeOutputs } from '../workers/events';
import { keyedRecord } from '../workflow/keys';
import { PrepareError } from './io';

/** Where one output port's value went. */
export interface PortFiles {
  kind: Value['kind'];
  /** File names inside the run folder: one per image, one for a text or number. */
  files: string[];
  /** Images made on a pool: the label of the server that made each file, in order (null: not said). */
  madeOn?: (string | null)[];
}

/** `madeOn` of `images` for their PortFiles, when any of them says. */
function madeOnOf(images: readonly ImageData[]): { madeOn?: (string | null)[] } {
  return images.some((i) => i.madeOn !== undefined) ? { madeOn: images.map((i) => i.madeOn ?? null) } : {};
}

export interface OutputWriterOptions {
  /**
   * The bytes to write for an image going to `file` from `nodeId`'s outputs (the CLI embeds the
   * workflow here); by default the image's own bytes.
   */
  imageBytes?(image: ImageData, file: string, nodeId: string): Uint8Array;
}

export interface OutputWriter {
  readonly dir: string;
  /**
   * Names the files for a node's outputs and starts writing them; the names are final at once.
   * `stem` replaces `<node-id>-<port>` and disables sharing with earlier files (Preview's name);
   * `item` (0-based) names one item's outputs of a node that runs once per item.
   */
  write(nodeId: string, outputs: NodeOutputs, stem?: string, item?: number): Record<string, PortFiles>;
  /** Waits for every write started so far; rejects with the first failure. */
  flush(): Promise<void>;
  /** Every file written (or being written), in order. */
  readonly files: readonly string[];
}

/** A run id that sorts by time: `20260131-120000-123` (UTC). */
export function runIdFor(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}-${iso.slice(20, 23)}`;
}

/**
 * Creates the run folder: `dir` as given (it may exist), or a new `<base>/<run-id>` (with a
 * suffix when two runs start in the same millisecond). Returns the folder and whether it held
 * files already.
 */
export async function createRunDir(dir: string | undefined, base: string, runId: string): Promise<{ dir: string; hadFiles: boolean }> {
  if (dir !== undefined) {
    try {
      await mkdir(dir, { recursive: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ENOTDIR') throw new PrepareError(`--out ${dir}: a file is in the way; --out names a folder (it may exist)`);
      if (code === 'EACCES' || code === 'EPERM') throw new PrepareError(`--out ${dir}: permission denied`);
      throw error;
    }
    return { dir, hadFiles: (await readdir(dir)).length > 0 };
  }
  await mkdir(base, { recursive: true });
  for (let n = 1; ; n++) {
    const candidate = join(base, n === 1 ? runId : `${runId}-${n}`);
    try {
      await mkdir(candidate);
      return { dir: candidate, hadFiles: false };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n > 100) throw error;
    }
  }
}

/**
 * A node's outputs in writing order: a list of several images before the rest, so its files are
 * numbered `-0`, `-1`… and the single `image` (its first) points at `-0`; with one image the
 * single `image` name is the one written.
 */
function listsFirst(outputs: NodeOutputs): [string, Value][] {
  const entries = Object.entries(outputs);
  const isList = ([, v]: [string, Value]) => (v.kind === 'images' || v.kind === 'texts') && v.value.length > 1;
  return [...entries.filter(isList), ...entries.filter((e) => !isList(e))];
}

export function createOutputWriter(dir: string, options: OutputWriterOptions = {}): OutputWriter {
  const files: string[] = [];
  const taken = new Set<string>();
  /** Content already written, to the file holding it. */
  const written = new Map<string, string>();
  const pending: Promise<void>[] = [];
  let failure: unknown;

  const claim = (stem: string, ext: string): string => {
    for (let n = 1; ; n++) {
      const name = `${n === 1 ? stem : `${stem}-${n}`}.${ext}`;
      // Case-insensitive file systems would merge names that differ only in case.
      if (!taken.has(name.toLowerCase())) {
        taken.add(name.toLowerCase());
        return name;
      }
    }
  };

  const put = (key: string, stem: string, ext: string, data: (name: string) => Uint8Array | string, share: boolean): string => {
    const existing = share ? written.get(key) : undefined;
    if (existing !== undefined) return existing;
    const name = claim(stem, ext);
    files.push(name);
    if (!written.has(key)) written.set(key, name);
    let content: Uint8Array | string;
    try {
      content = data(name);
    } catch (error) {
      // Reported by flush like a failed write: the run goes on, the exit code says it.
      failure ??= error;
      return name;
    }
    pending.push(writeFile(join(dir, name), content).catch((error: unknown) => {
      failure ??= error;
    }));
    return name;
  };

  const imageBytes = options.imageBytes ?? ((image: ImageData) => Buffer.from(image.b64, 'base64'));
  const putImage = (image: ImageData, stem: string, share: boolean, nodeId: string) =>
    put(`image:${image.b64}`, stem, mimeExtension(image.mime), (name) => imageBytes(image, name, nodeId), share);
  const putText = (text: string, stem: string, share: boolean) => put(`text:${text}`, stem, 'txt', () => text, share);

  return {
    dir,
    get files() {
      return files;
    },
    write(nodeId, outputs, stem, item) {
      const result = keyedRecord<PortFiles>();
      const share = stem === undefined;
      for (const [port, value] of listsFirst(outputs)) {
        // A component's inner node (`restyle-1/img2img`) writes `restyle-1.img2img-…`: '.' is in no node id, '/' would be a folder.
        const base = `${stem ?? `${nodeId.replaceAll('/', '.')}-${port}`}${item === undefined ? '' : `-${item}`}`;
        switch (value.kind) {
          case 'text':
            result[port] = { kind: 'text', files: [putText(value.value, base, share)] };
            break;
          case 'number':
            result[port] = { kind: 'number', files: [putText(String(value.value), base, share)] };
            break;
          case 'image':
            result[port] = { kind: 'image', files: [putImage(value.value, base, share, nodeId)], ...madeOnOf([value.value]) };
            break;
          case 'images':
            result[port] = { kind: 'images', files: value.value.map((image, i) => putImage(image, `${base}-${i}`, share, nodeId)), ...madeOnOf(value.value) };
            break;
          case 'texts':
            result[port] = { kind: 'texts', files: value.value.map((text, i) => putText(text, `${base}-${i}`, share)) };
            break;
        }
      }
      // Reported in the node's own port order, whatever order the files were named in.
      return keyedRecord(Object.keys(outputs).map((port) => [port, result[port]!]));
    },
    async flush() {
      await Promise.all(pending);
      if (failure !== undefined) throw failure;
    },
  };
}
