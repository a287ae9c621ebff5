/**
 * What the workflow loader needs to know of the catalogue: which node types exist (others are kept
 * verbatim and reported) and which parameters each declares (so a declared parameter named like an
 * endpoint is not taken for one). The editor, the CLI and the tests all load files through this.
 */
import { z } from 'zod';
import type { LoadOptions } from '../workflow/load';
import type { DeclaredParamKind } from '../workflow/scrub';
import type { NodeRegistry } from './index';

/** The parameter schemas of a node type by name, or undefined for an unknown type. */
export function paramShape(registry: NodeRegistry, type: string): Record<string, { safeParse(v: unknown): { success: boolean } }> | undefined {
  const def = registry.get(type);
  const shape = (def?.params as { shape?: unknown } | undefined)?.shape;
  return typeof shape === 'object' && shape !== null ? (shape as Record<string, { safeParse(v: unknown): { success: boolean } }>) : undefined;
}

interface SchemaDef { type?: string; innerType?: { _zod?: { def?: SchemaDef } } }

/** Whether a param's schema (under optional, default or nullable) is a record: keys chosen by a person. */
function isRecordSchema(schema: unknown): boolean {
  let def = (schema as { _zod?: { def?: SchemaDef } })._zod?.def;
  while (def !== undefined && (def.type === 'optional' || def.type === 'default' || def.type === 'nullable')) def = def.innerType?._zod?.def;
  return def?.type === 'record';
}

/** The kind a param declares: a record, `[name, value]` pairs (`.meta({ entries: 'pairs' })`: a ComfyUI workflow), or a value. */
function kindOf(schema: unknown): DeclaredParamKind {
  if (isRecordSchema(schema)) return 'record';
  const meta = z.globalRegistry.get(schema as z.ZodType) as { entries?: unknown } | undefined;
  return meta?.entries === 'pairs' ? 'pairs' : 'value';
}

/** Loader options for a registry: known types and each type's declared parameters. */
export function catalogueLoadOptions(registry: NodeRegistry): Pick<LoadOptions, 'knownTypes' | 'declaredParams'> {
  const knownTypes = new Set(registry.list().map((d) => d.type));
  const declared = new Map<string, ReadonlyMap<string, DeclaredParamKind>>();
  const declaredParams = (type: string): ReadonlyMap<string, DeclaredParamKind> | undefined => {
    const known = declared.get(type);
    if (known !== undefined) return known;
    const shape = paramShape(registry, type);
    if (shape === undefined) return undefined;
    const kinds = new Map(Object.entries(shape).map(([name, schema]) => [name, kindOf(schema)]));
    declared.set(type, kinds);
    return kinds;
  };
  return { knownTypes, declaredParams };
}
