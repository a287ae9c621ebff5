/**
 * What the workflow loader needs to know of the catalogue: which node types exist (others are kept
 * verbatim and reported) and which parameters each declares (so a declared parameter named like an
 * endpoint is not taken for one). The editor, the CLI and the tests all load files through this.
 */
import type { LoadOptions } from '../workflow/load';
import type { NodeRegistry } from './index';

/** The parameter schemas of a node type by name, or undefined for an unknown type. */
export function paramShape(registry: NodeRegistry, type: string): Record<string, { safeParse(v: unknown): { success: boolean } }> | undefined {
  const def = registry.get(type);
  const shape = (def?.params as { shape?: unknown } | undefined)?.shape;
  return typeof shape === 'object' && shape !== null ? (shape as Record<string, { safeParse(v: unknown): { success: boolean } }>) : undefined;
}

/** Loader options for a registry: known types and each type's declared parameters. */
export function catalogueLoadOptions(registry: NodeRegistry): Pick<LoadOptions, 'knownTypes' | 'declaredParams'> {
  const knownTypes = new Set(registry.list().map((d) => d.type));
  const declaredParams = (type: string): ReadonlySet<string> | undefined => {
    const shape = paramShape(registry, type);
    return shape === undefined ? undefined : new Set(Object.keys(shape));
  };
  return { knownTypes, declaredParams };
}
