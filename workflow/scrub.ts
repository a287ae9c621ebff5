/**
 * Keeping credentials and endpoints out of workflows. One walk over the document, aware of where
 * it is (top level, metadata, a node's params), used two ways:
 * - on load, to remove every field named like a credential or an endpoint and every non-prose
 *   value shaped like a credential, before anything reads them;
 * - before export, to report what a person should look at (including prose that holds a key).
 *
 * Prose (prompts, templates, titles, descriptions) is never changed: "a token of friendship" is a
 * prompt, and even a key pasted into a prompt is the author's text to fix, so it is reported only.
 */
import { findCredentialLike, isCredentialKey, isEndpointKey, keyWords } from './credentials';
import { type PathLink, extendPath, formatLink } from './path';
import { type JsonObject, type JsonValue, isJsonObject } from './sanitize';

/** A place in a workflow that holds, or is named like, a credential or an endpoint. */
export interface CredentialFinding {
  path: string;
  /** What was found, never the value: "the key 'api_key' names a credential". */
  message: string;
  /** Prose keeps its text and is only reported; anything else is removed on load. */
  freeText: boolean;
  /** The node it is in, when it is in one. */
  nodeId?: string;
}

/**
 * How a declared param holds its value: `record` when its keys are names a person chose (LoRA
 * and textual inversion asset names), so they are data, judged by their shape and not their words;
 * `pairs` when it holds a ComfyUI workflow whose inputs are `[name, value]` lists (a name from
 * the file is never an object key): each name is judged like a key, and a credential's value is
 * emptied in place so the list keeps its shape.
 */
export type DeclaredParamKind = 'value' | 'record' | 'pairs';

/** The params each node type declares (undefined for a type this build does not know). */
export type DeclaredParams = (type: string) => ReadonlyMap<string, DeclaredParamKind> | undefined;

/** Words that make a field prose (in params, at any depth): `negative_prompt_2`, `messages[0].content`. */
const PROSE_WORDS = new Set([
  'prompt', 'prompts', 'text', 'texts', 'template', 'templates', 'content', 'message', 'messages',
  'system', 'instruction', 'instructions', 'description', 'note', 'notes', 'comment', 'comments',
  'caption', 'title', 'label', 'body',
]);

interface Where {
  /** The path of the object being visited, from the document root. */
  zone: 'root' | 'metadata' | 'nodes' | 'node' | 'params' | 'names' | 'pairs' | 'other';
  freeText: boolean;
  nodeId?: string;
  declared?: ReadonlyMap<string, DeclaredParamKind>;
  /** In a ComfyUI workflow: the ComfyUI node being visited, as findings name it. */
  comfyNode?: string;
  /** In a ComfyUI workflow: the input being visited; findings under it are named by node and input. */
  comfyInput?: string;
}

interface KeyJudgement {
  /** Why the key names or is a credential, if it does. */
  credential: string | undefined;
  endpoint: boolean;
  /** Whether values under it are prose. */
  prose: boolean;
}

/**
 * Judgements by key. A document repeats a few keys thousands of times (`id`, `node`, `port`),
 * so each is judged once; the cache is emptied when it grows, as hostile keys are all distinct.
 */
const judgements = new Map<string, KeyJudgement>();
const MAX_JUDGEMENTS = 4096;

function judgeKeyName(key: string): KeyJudgement {
  let judged = judgements.get(key);
  if (judged) return judged;
  const shape = findCredentialLike(key);
  judged = {
    credential: shape ? `the key itself looks like ${shape.kind}`
      : isCredentialKey(key) ? `the key '${key}' names a credential` : undefined,
    endpoint: isEndpointKey(key),
    prose: keyWords(key).some((w) => PROSE_WORDS.has(w)),
  };
  if (judgements.size >= MAX_JUDGEMENTS) judgements.clear();
  judgements.set(key, judged);
  return judged;
}

const REMOVED = Symbol('removed');
const REDACTED_KEY = '(a key that looks like a credential)';

class Walker {
  constructor(
    private readonly remove: boolean,
    private readonly declaredParams: DeclaredParams | undefined,
    private readonly onFinding: (finding: CredentialFinding) => void,
  ) {}

  visit(value: JsonValue, path: PathLink | undefined, where: Where): JsonValue | typeof REMOVED {
    if (where.zone === 'pairs' && typeof value === 'object' && value !== null) return this.visitPairs(value, path, where);
    if (typeof value === 'string') return this.visitText(value, path, where);
    if (Array.isArray(value)) {
      const kept: JsonValue[] = [];
      value.forEach((item, i) => {
        const itemWhere = where.zone === 'nodes' ? this.nodeWhere(item) : where;
        const result = this.visit(item, extendPath(path, i), itemWhere);
        if (result !== REMOVED) kept.push(result);
      });
      return kept;
    }
    if (isJsonObject(value)) return this.visitObject(value, path, where);
    return value;
  }

  private visitText(text: string, path: PathLink | undefined, where: Where): string | typeof REMOVED {
    const found = findCredentialLike(text);
    if (!found) return text;
    this.report(formatLink(path), `holds what looks like ${found.kind}`, where);
    return this.remove && !where.freeText ? REMOVED : text;
  }

  private visitObject(object: JsonObject, path: PathLink | undefined, where: Where): JsonObject {
    const kept: JsonObject = {};
    for (const [key, child] of Object.entries(object)) {
      const childWhere = this.childWhere(where, key);
      const verdict = this.judgeKey(key, where);
      if (verdict) {
        const shown = findCredentialLike(key) ? REDACTED_KEY : key;
        this.report(formatLink(extendPath(path, shown)), verdict, { ...where, freeText: false });
        if (this.remove) continue;
      }
      const result = verdict ? child : this.visit(child, extendPath(path, key), childWhere);
      if (result !== REMOVED) kept[key] = result;
    }
    return kept;
  }

  /**
   * A ComfyUI workflow (comfy-workflow's `pipeline`): its nodes (`id`, `class_type`, `title`) and
   * their `[name, value]` inputs. A credential-named input keeps its place with an empty value.
   */
  private visitPairs(value: JsonObject | JsonValue[], path: PathLink | undefined, where: Where): JsonValue {
    if (Array.isArray(value)) {
      const [name, inner] = value;
      if (value.length === 2 && typeof name === 'string') {
        const shaped = findCredentialLike(name);
        const verdict = shaped ? `the input name itself looks like ${shaped.kind}` : judgeKeyName(name).credential;
        const inputWhere: Where = {
          zone: 'other', freeText: judgeKeyName(name).prose, comfyNode: where.comfyNode ?? 'a ComfyUI node', comfyInput: shaped ? REDACTED_KEY : name,
          ...(where.nodeId === undefined ? {} : { nodeId: where.nodeId }),
        };
        if (verdict !== undefined && inner !== '' && inner !== null) {
          this.report(formatLink(extendPath(path, 1)), verdict, { ...inputWhere, freeText: false });
          if (this.remove) return [name, ''];
        }
        if (typeof inner === 'string') {
          const result = this.visitText(inner, extendPath(path, 1), inputWhere);
          return result === REMOVED ? [name, ''] : value;
        }
        const kept = this.visit(inner as JsonValue, extendPath(path, 1), inputWhere);
        return [name, kept === REMOVED ? '' : kept];
      }
      const kept: JsonValue[] = [];
      value.forEach((item, i) => {
        const result = this.visit(item, extendPath(path, i), where);
        if (result !== REMOVED) kept.push(result);
      });
      return kept;
    }
    const { id, class_type: cls, title } = value;
    if (typeof id === 'string' && typeof cls === 'string') {
      const shown = typeof title === 'string' && title !== '' && !findCredentialLike(title) ? title : findCredentialLike(cls) ? 'a node' : cls;
      where = { ...where, comfyNode: `ComfyUI node ${findCredentialLike(id) ? '(id withheld)' : id} (${shown})` };
    }
    return this.visitObject(value, path, where);
  }

  private judgeKey(key: string, where: Where): string | undefined {
    // A LoRA named 'style-token' is a name: only a key that is itself shaped like a secret goes.
    if (where.zone === 'names') {
      const shape = findCredentialLike(key);
      return shape ? `the key itself looks like ${shape.kind}` : undefined;
    }
    const judged = judgeKeyName(key);
    if (judged.credential !== undefined) return judged.credential;
    const declared = where.zone === 'params' && where.declared?.has(key) === true;
    if (!declared && judged.endpoint) return `the key '${key}' names an endpoint`;
    return undefined;
  }

  /** Where a key's value sits; the parent's object is reused when nothing changes (most keys). */
  private childWhere(where: Where, key: string): Where {
    const { nodeId } = where;
    switch (where.zone) {
      case 'root':
        return { zone: key === 'metadata' ? 'metadata' : key === 'nodes' ? 'nodes' : 'other', freeText: false };
      case 'metadata':
        return { zone: 'other', freeText: key === 'title' || key === 'description' };
      case 'node':
        if (key === 'params') return { zone: 'params', freeText: false, nodeId, declared: where.declared };
        return { zone: 'other', freeText: key === 'title', nodeId };
      case 'params':
        if (where.declared?.get(key) === 'record') return { zone: 'names', freeText: false, nodeId };
        if (where.declared?.get(key) === 'pairs') return { zone: 'pairs', freeText: false, nodeId };
        return { zone: 'other', freeText: judgeKeyName(key).prose, nodeId };
      case 'names':
        return { zone: 'other', freeText: false, nodeId };
      case 'pairs':
        return where;
      case 'other':
        if (where.freeText || !judgeKeyName(key).prose) return where;
        return { ...where, freeText: true };
      default:
        return { zone: 'other', freeText: where.freeText || judgeKeyName(key).prose, nodeId };
    }
  }

  private nodeWhere(node: JsonValue): Where {
    if (!isJsonObject(node)) return { zone: 'other', freeText: false };
    const id = typeof node.id === 'string' && !findCredentialLike(node.id) ? node.id : undefined;
    const declared = typeof node.type === 'string' ? this.declaredParams?.(node.type) : undefined;
    return { zone: 'node', freeText: false, nodeId: id, declared };
  }

  private report(path: string, message: string, where: Where): void {
    const said = where.comfyInput === undefined ? message : `${where.comfyNode ?? 'a ComfyUI node'}, input ${where.comfyInput}: ${message}`;
    const finding: CredentialFinding = { path, message: said, freeText: where.freeText };
    if (where.nodeId !== undefined) finding.nodeId = where.nodeId;
    this.onFinding(finding);
  }
}

/**
 * Removes credential- and endpoint-named fields and credential-shaped non-prose values from a
 * raw document (a fresh copy is returned), telling `onFinding` of everything found, removed or not.
 */
export function scrubCredentials(doc: JsonObject, declaredParams: DeclaredParams | undefined, onFinding: (finding: CredentialFinding) => void): JsonObject {
  const cleaned = new Walker(true, declaredParams, onFinding).visit(doc, undefined, { zone: 'root', freeText: false });
  return isJsonObject(cleaned) ? cleaned : {};
}

/**
 * Everything in a workflow a person should check before sharing it: fields named like
 * credentials or endpoints, and credential-shaped text anywhere, prose included. Changes nothing.
 */
export function scanForCredentials(workflow: unknown, declaredParams?: DeclaredParams): CredentialFinding[] {
  const findings: CredentialFinding[] = [];
  new Walker(false, declaredParams, (finding) => findings.push(finding)).visit(workflow as JsonValue, undefined, { zone: 'root', freeText: false });
  return findings;
}
