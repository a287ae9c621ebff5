/**
 * The workflow file's name and version, and the group colours it allows: plain constants the
 * editor needs from its first paint, apart from the zod schema (schema.ts), which only reading,
 * checking and writing a file need.
 */
export const WORKFLOW_FORMAT = 'atelier.workflow';
/**
 * The newest format version this build reads and writes. Version 2 is version 1 plus an optional
 * `components` section: a file is written with the lowest version that holds what it has
 * (`versionFor`), so files without components keep version 1 and their bytes, and an older build
 * opening a file with components reads "written by a newer Atelier" instead of a broken graph.
 */
export const WORKFLOW_VERSION = 2;

/** The first version that can hold a `components` section. */
export const COMPONENTS_VERSION = 2;

/** The version a file with this content is written in: the lowest that holds it. */
export function versionFor(content: object): 1 | typeof WORKFLOW_VERSION {
  const { components, app } = content as { components?: unknown; app?: unknown };
  // An app, like components, is something a version-1 build cannot read: it says "newer" rather than refusing the file.
  return (Array.isArray(components) && components.length > 0) || (app !== undefined && app !== null) ? COMPONENTS_VERSION : 1;
}

/** The colours a group's frame may take: names, so a file never carries CSS. */
export const GROUP_COLORS = ['slate', 'blue', 'teal', 'green', 'yellow', 'orange', 'red', 'purple'] as const;
export type GroupColor = (typeof GROUP_COLORS)[number];
