/**
 * The check before a workflow leaves the machine (exported, copied out, embedded in an image):
 * every string in it, prose included, is searched with the credential detector of
 * credentials.ts, and every params key is judged by name. Findings name the field and never
 * quote the secret; `removeFindings` then takes the secrets out so the export can go on.
 */
import { type CredentialLike, findCredentialLike, isCredentialKey, isEndpointKey } from './credentials';
import { type PathSegment, formatPath } from './path';
import { edgeIdFor, uniqueNodeId } from './create';
import type { Workflow } from './schema';
import type { DeclaredParamKind, DeclaredParams } from './scrub';

/** What removal does with a finding. */
export type Remedy =
  /** The credential-like pieces of the text are replaced by REMOVED_MARK. */
  | 'replace'
  /** The whole field goes: it is named like a credential, or it is nothing but one. */
  | 'drop'
  /** Entries of the object whose key itself looks like a credential go. */
  | 'drop-keys'
  /** The value is emptied in place (a ComfyUI input `[name, value]` keeps its name and place). */
  | 'empty'
  /** A node or edge id: it is replaced by a fresh one, and edges follow. */
  | 'rename'
  /** A node type or a port name: only a person can fix it. */
  | 'manual';

export interface ExportFinding {
  /** The node it is in, unless the node's id is itself the finding. */
  nodeId?: string;
  /** Where, as `nodes[2].params.prompt`; never contains the secret. */
  path: string;
  /** The same place as segments, for removeFindings. */
  at: PathSegment[];
  /** The field as a person names it: `prompt of “Hero shot” (t2i)`. */
  field: string;
  /** What it looks like: 'an API key (sk-…)', 'a field named like a credential'. */
  kind: string;
  /** A masked hint such as `sk-…(51 chars)`: enough to recognise, never enough to use. */
  preview: string;
  remedy: Remedy;
}

export interface ExportScan {
  findings: ExportFinding[];
}

export interface ExportScanOptions {
  /** Params a node type declares: a declared param may be named like an endpoint (`url`). */
  declaredParams?: DeclaredParams;
}

/** What takes the place of a credential inside prose. */
export const REMOVED_MARK = '[removed]';

/** Past this many in one text, more findings add nothing for the reader (removal still takes all). */
const MAX_FINDINGS_PER_TEXT = 20;
/** Params nest to the loader's 64 levels; a deeper in-memory value is not walked further. */
const MAX_DEPTH = 200;

/**
 * Every credential-shaped piece of `text`, in order (credentials.ts's `findCredentialLike`
 * finds the first; this carries on after it).
 */
export function findAllCredentialLike(text: string, limit = Number.POSITIVE_INFINITY): CredentialLike[] {
  const found: CredentialLike[] = [];
  let offset = 0;
  while (found.length < limit && offset < text.length) {
    const next = findCredentialLike(offset === 0 ? text : text.slice(offset));
    if (!next) break;
    found.push({ kind: next.kind, start: next.start + offset, end: next.end + offset });
    offset += next.end;
  }
  return found;
}

/** `text` with every credential-shaped piece replaced by `mark`. */
export function removeCredentialLike(text: string, mark = REMOVED_MARK): string {
  const pieces = findAllCredentialLike(text);
  if (pieces.length === 0) return text;
  let out = '';
  let from = 0;
  for (const { start, end } of pieces) {
    out += text.slice(from, start) + mark;
    from = end;
  }
  return out + text.slice(from);
}

/** A well-known prefix, kept so a person knows which key it was: never more than a few characters. */
const VISIBLE_PREFIX = /^(?:Bearer\s+|-----BEGIN|eyJ|AKIA|ASIA|AIza|[a-z][a-z0-9+.-]{0,9}:\/\/|[?&][A-Za-z_-]{1,12}=|[A-Za-z0-9]{1,10}[-_])/i;

/** `sk-…(51 chars)`: the prefix that names the kind, and the length. */
export function maskCredential(piece: string): string {
  const prefix = VISIBLE_PREFIX.exec(piece)?.[0] ?? '';
  return `${prefix.slice(0, 14)}…(${piece.length} chars)`;
}

function maskValue(value: unknown): string {
  if (typeof value === 'string') return `…(${value.length} chars)`;
  if (value === null) return '(empty)';
  return Array.isArray(value) ? '(a list)' : `(${typeof value === 'object' ? 'an object' : `a ${typeof value}`})`;
}

const IMAGE_PAYLOAD = /^(?:data:image\/[\w.+-]+;base64,)?(?:\/9j\/|iVBORw0KGgo|UklGR|R0lGOD)[A-Za-z0-9+/\r\n]*={0,2}$/;

/** An embedded image (base64, raw or as a data URL) is data, whatever its length. */
function isImagePayload(text: string): boolean {
  return text.length >= 64 && IMAGE_PAYLOAD.test(text);
}

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

interface NodeContext {
  index: number;
  /** `“Hero shot” (t2i)`, or `text-to-image node #3` when the title or id are not safe to show. */
  name: string;
  /** The node's id, when it is not itself credential-like. */
  id?: string;
  declared?: ReadonlyMap<string, DeclaredParamKind>;
}

function describeNode(node: Obj, index: number, declaredParams: DeclaredParams | undefined): NodeContext {
  const safe = (v: unknown): v is string => typeof v === 'string' && v !== '' && !findCredentialLike(v);
  const id = safe(node.id) ? node.id : undefined;
  const type = safe(node.type) ? `${node.type} ` : '';
  const name = safe(node.title) ? `“${node.title}”` : `${type}node #${index + 1}`;
  const ctx: NodeContext = { index, name: id === undefined ? name : `${name} (${id})` };
  if (id !== undefined) ctx.id = id;
  const declared = typeof node.type === 'string' ? declaredParams?.(node.type) : undefined;
  if (declared) ctx.declared = declared;
  return ctx;
}

/** How a person names the field at `at`. */
function fieldLabel(at: readonly PathSegment[], node: NodeContext | undefined): string {
  const [top, index, field, ...rest] = at;
  if (top === 'metadata' && typeof index === 'string') return index === 'title' || index === 'description' ? `the workflow's ${index}` : `workflow ${index}`;
  if (top === 'nodes' && node) {
    if (field === 'params') return rest.length === 0 ? `the parameters of ${node.name}` : `${formatPath(rest)} of ${node.name}`;
    return `the ${formatPath([field ?? '', ...rest])} of ${node.name}`;
  }
  if (top === 'edges' && typeof index === 'number') return `${formatPath([field ?? '', ...rest])} of edge #${index + 1}`;
  if (top === 'notes' && typeof index === 'number') return `the ${formatPath([field ?? '', ...rest])} of note #${index + 1}`;
  if (top === 'groups' && typeof index === 'number') return `the ${formatPath([field ?? '', ...rest])} of group #${index + 1}`;
  return formatPath(at);
}

class Scanner {
  readonly findings: ExportFinding[] = [];
  constructor(private readonly declaredParams: DeclaredParams | undefined) {}

  scan(workflow: Workflow): void {
    const doc = workflow as unknown as Obj;
    if (isObject(doc.metadata)) this.walk(doc.metadata, ['metadata'], undefined, 'text');
    if (Array.isArray(doc.nodes)) {
      doc.nodes.forEach((node: unknown, i) => {
        if (!isObject(node)) return;
        const ctx = describeNode(node, i, this.declaredParams);
        for (const [key, value] of Object.entries(node)) {
          const at = ['nodes', i, key];
          if (key === 'params' && isObject(value)) this.walkParams(value, at, ctx);
          else if (key === 'id' || key === 'type') this.text(value, at, ctx, key === 'id' ? 'rename' : 'manual');
          else if (key === 'title') this.text(value, at, ctx, 'optional');
          else this.walk(value, at, ctx, 'text');
        }
      });
    }
    // Notes and group titles are prose like prompts: a key pasted there leaves with the file.
    for (const list of ['notes', 'groups'] as const) {
      const items = doc[list];
      if (Array.isArray(items)) items.forEach((item: unknown, i) => this.walk(item, [list, i], undefined, 'text'));
    }
    if (Array.isArray(doc.edges)) {
      doc.edges.forEach((edge: unknown, i) => {
        if (!isObject(edge)) return;
        this.text(edge.id, ['edges', i, 'id'], undefined, 'rename');
        // An end's node is a node id, reported (and renamed) on the node itself.
        for (const end of ['source', 'target'] as const) {
          if (isObject(edge[end])) this.text(edge[end].port, ['edges', i, end, 'port'], undefined, 'manual');
        }
      });
    }
  }

  private walkParams(params: Obj, at: PathSegment[], node: NodeContext): void {
    for (const [key, value] of Object.entries(params)) {
      if (node.declared?.get(key) === 'pairs') {
        this.walkPairs(value, [...at, key], node, undefined, 0);
        continue;
      }
      if (node.declared?.get(key) === 'record' && isObject(value)) {
        // Keys are names a person chose (a LoRA called 'style-token'): data, judged by shape only.
        for (const [name, child] of Object.entries(value)) this.entry(name, child, [...at, key, name], node, 'text', true);
        continue;
      }
      // A top-level param that is nothing but a credential can go; deeper ones keep their shape.
      this.entry(key, value, [...at, key], node, 'optional');
    }
  }

  /**
   * A ComfyUI workflow (`[name, value]` inputs under nodes with `id` and `class_type`): each input
   * named like a credential, or holding one, is named by its ComfyUI node and input.
   */
  private walkPairs(value: unknown, at: PathSegment[], node: NodeContext, comfy: string | undefined, depth: number): void {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(value)) {
      const [name, inner] = value as unknown[];
      if (value.length === 2 && typeof name === 'string' && comfy !== undefined) {
        const shaped = findCredentialLike(name);
        const field = `input ${shaped ? '(a name that looks like a credential)' : name} of ${comfy} in ${node.name}`;
        if ((shaped || isCredentialKey(name)) && inner !== '' && inner !== null) {
          this.report([...at, 1], node, shaped ? `an input name that looks like ${shaped.kind}` : `a ComfyUI input named like a credential ('${name}')`, maskValue(inner), 'empty', field);
          return;
        }
        return this.walkInput(inner, [...at, 1], node, field, depth + 1);
      }
      value.forEach((item, i) => this.walkPairs(item, [...at, i], node, comfy, depth + 1));
      return;
    }
    if (!isObject(value)) return this.walk(value, at, node, 'text', depth);
    const { id, class_type: cls, title } = value;
    if (typeof id === 'string' && typeof cls === 'string') {
      const shown = typeof title === 'string' && title !== '' && !findCredentialLike(title) ? title : findCredentialLike(cls) ? 'a node' : cls;
      comfy = `ComfyUI node ${findCredentialLike(id) ? '(id withheld)' : id} (${shown})`;
    }
    for (const [key, child] of Object.entries(value)) {
      if (key === 'inputs' || key === 'nodes') this.walkPairs(child, [...at, key], node, comfy, depth + 1);
      else this.entry(key, child, [...at, key], node, 'text');
    }
  }

  /** A ComfyUI input's value, at any depth, each finding named `input NAME.KEY of ComfyUI node …`. */
  private walkInput(value: unknown, at: PathSegment[], node: NodeContext, field: string, depth: number): void {
    if (depth > MAX_DEPTH) return;
    if (typeof value === 'string') {
      if (isImagePayload(value)) return;
      for (const piece of findAllCredentialLike(value, MAX_FINDINGS_PER_TEXT)) this.report(at, node, piece.kind, maskCredential(value.slice(piece.start, piece.end)), 'replace', field);
      return;
    }
    if (Array.isArray(value)) return value.forEach((item, i) => this.walkInput(item, [...at, i], node, field, depth + 1));
    if (!isObject(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const shaped = findCredentialLike(key);
      if (shaped) this.report(at, node, `a key that looks like ${shaped.kind}`, maskCredential(key.slice(shaped.start, shaped.end)), 'drop-keys', field);
      else if (isCredentialKey(key)) this.report([...at, key], node, `a field named like a credential ('${key}')`, maskValue(child), 'drop', field.replace(/^input ([^ ]+)/, `input $1.${key}`));
      else this.walkInput(child, [...at, key], node, field, depth + 1);
    }
  }

  private entry(key: string, value: unknown, at: PathSegment[], node: NodeContext | undefined, role: 'optional' | 'text', keyIsName = false): void {
    const shaped = findCredentialLike(key);
    if (shaped) {
      // The key is the secret: point at the object, never name the key.
      this.report(at.slice(0, -1), node, `a key that looks like ${shaped.kind}`, `${maskCredential(key.slice(shaped.start, shaped.end))}`, 'drop-keys');
      return;
    }
    if (keyIsName) return this.walk(value, at, node, role);
    if (isCredentialKey(key)) return this.report(at, node, `a field named like a credential ('${key}')`, maskValue(value), 'drop');
    const declared = node?.declared?.has(key) === true && at.length === 4;
    if (isEndpointKey(key) && !declared) return this.report(at, node, `a field named like an endpoint ('${key}')`, maskValue(value), 'drop');
    this.walk(value, at, node, role);
  }

  private walk(value: unknown, at: PathSegment[], node: NodeContext | undefined, role: 'optional' | 'text', depth = 0): void {
    if (depth > MAX_DEPTH) return;
    if (typeof value === 'string') return this.text(value, at, node, role);
    if (Array.isArray(value)) return value.forEach((item, i) => this.walk(item, [...at, i], node, 'text', depth + 1));
    if (!isObject(value)) return;
    for (const [key, child] of Object.entries(value)) {
      this.entry(key, child, [...at, key], node, 'text');
    }
  }

  /** `role`: 'optional' fields may be dropped when they hold nothing but a credential. */
  private text(value: unknown, at: PathSegment[], node: NodeContext | undefined, role: 'optional' | 'text' | 'manual' | 'rename'): void {
    if (typeof value !== 'string' || isImagePayload(value)) return;
    const pieces = findAllCredentialLike(value, MAX_FINDINGS_PER_TEXT);
    for (const piece of pieces) {
      const whole = pieces.length === 1 && value.trim() === value.slice(piece.start, piece.end);
      const remedy: Remedy = role === 'rename' || role === 'manual' ? role : whole && role === 'optional' ? 'drop' : 'replace';
      this.report(at, node, piece.kind, maskCredential(value.slice(piece.start, piece.end)), remedy);
    }
  }

  private report(at: PathSegment[], node: NodeContext | undefined, kind: string, preview: string, remedy: Remedy, field?: string): void {
    const finding: ExportFinding = { path: formatPath(at), at, field: field ?? fieldLabel(at, node), kind, preview, remedy };
    if (node?.id !== undefined) finding.nodeId = node.id;
    this.findings.push(finding);
  }
}

/**
 * Everything in `workflow` that looks like a credential or is named like one or like an endpoint,
 * in document order. Embedded images, seeds, colours and prose about "tokens" are not findings.
 */
export function scanWorkflowForExport(workflow: Workflow, options: ExportScanOptions = {}): ExportScan {
  const scanner = new Scanner(options.declaredParams);
  scanner.scan(workflow);
  return { findings: scanner.findings };
}

/** Where a finding points: the container and the key or index in it, or undefined if gone. */
function locate(doc: unknown, at: readonly PathSegment[]): { parent: Obj | unknown[]; key: PathSegment } | undefined {
  let parent: unknown = doc;
  for (const segment of at.slice(0, -1)) {
    parent = isObject(parent) || Array.isArray(parent) ? (parent as Record<PathSegment, unknown>)[segment] : undefined;
  }
  const key = at[at.length - 1];
  return key !== undefined && (isObject(parent) || Array.isArray(parent)) ? { parent, key } : undefined;
}

/** Gives renamed nodes' edges their new ends, and credential-like or renamed edge ids fresh ones. */
function fixEdges(doc: Workflow, renamed: ReadonlyMap<string, string>): void {
  const taken = new Set(doc.edges.map((e) => e.id));
  for (const edge of doc.edges) {
    const touched = renamed.has(edge.source.node) || renamed.has(edge.target.node);
    edge.source.node = renamed.get(edge.source.node) ?? edge.source.node;
    edge.target.node = renamed.get(edge.target.node) ?? edge.target.node;
    if (!touched && !findCredentialLike(edge.id)) continue;
    taken.delete(edge.id);
    const base = removeCredentialLike(edgeIdFor(edge.source, edge.target), 'x');
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
    edge.id = id;
    taken.add(id);
  }
}

/**
 * A copy of `workflow` with what `findings` point at taken out (the argument is left alone):
 * credential-like pieces of text replaced by REMOVED_MARK, fields named like credentials or
 * holding nothing but one dropped, credential-like ids replaced (edges follow). Each place is
 * judged again, so a field edited since the scan is not emptied by mistake. 'manual' findings
 * are left for a person.
 */
export function removeFindings(workflow: Workflow, findings: readonly ExportFinding[]): Workflow {
  const doc = structuredClone(workflow);
  const renamed = new Map<string, string>();
  for (const { at, remedy } of findings) {
    const place = locate(doc, at);
    if (!place) continue;
    const parent = place.parent as Record<PathSegment, unknown>;
    const { key } = place;
    const value = parent[key];
    if (remedy === 'replace' && typeof value === 'string') {
      parent[key] = removeCredentialLike(value);
    } else if (remedy === 'drop' && typeof key === 'string' && !Array.isArray(parent)) {
      const named = isCredentialKey(key) || isEndpointKey(key);
      if (named || (typeof value === 'string' && findCredentialLike(value))) delete parent[key];
    } else if (remedy === 'empty' && Array.isArray(parent) && key === 1 && typeof parent[0] === 'string' && (isCredentialKey(parent[0]) || findCredentialLike(parent[0]))) {
      parent[key] = '';
    } else if (remedy === 'drop-keys' && isObject(value)) {
      for (const k of Object.keys(value)) if (findCredentialLike(k)) delete value[k];
    } else if (remedy === 'rename' && at[0] === 'nodes' && typeof value === 'string' && findCredentialLike(value)) {
      const id = uniqueNodeId(doc, 'node');
      renamed.set(value, id);
      parent[key] = id;
    }
  }
  fixEdges(doc, renamed);
  return doc;
}
