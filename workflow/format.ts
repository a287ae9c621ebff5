/**
 * The workflow file's name and version, and the group colours it allows: plain constants the
 * editor needs from its first paint, apart from the zod schema (schema.ts), which only reading,
 * checking and writing a file need.
 */
export const WORKFLOW_FORMAT = 'atelier.workflow';
export const WORKFLOW_VERSION = 1;

/** The colours a group's frame may take: names, so a file never carries CSS. */
export const GROUP_COLORS = ['slate', 'blue', 'teal', 'green', 'yellow', 'orange', 'red', 'purple'] as const;
export type GroupColor = (typeof GROUP_COLORS)[number];
