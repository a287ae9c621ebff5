/**
 * The published JSON Schema of the workflow file, generated from the zod schema so that it is
 * never written twice. `npm run schema` writes it into public/schema/; a test
 * fails when the committed file and a fresh generation differ.
 */
import { z } from 'zod';
import { WORKFLOW_FORMAT, WORKFLOW_VERSION, WorkflowSchema } from './schema';

/** Where the generated file lives, relative to the repository root (and served at /schema/). */
export const WORKFLOW_JSON_SCHEMA_PATH = `public/schema/atelier-workflow.v${WORKFLOW_VERSION}.schema.json`;

/** The JSON Schema (draft 2020-12) of the current format version, as file text. */
export function renderWorkflowJsonSchema(): string {
  const generated = z.toJSONSchema(WorkflowSchema, { io: 'input', target: 'draft-2020-12' });
  const { $schema, ...body } = generated;
  const document = {
    $schema,
    $id: `urn:atelier:schema:workflow:v${WORKFLOW_VERSION}`,
    title: `Atelier workflow (format version ${WORKFLOW_VERSION})`,
    description:
      `A workflow file of Atelier, the node-graph editor for image generation and chat: "format": "${WORKFLOW_FORMAT}", `
      + 'nodes with parameters by name, edges between named ports, and metadata. It never holds endpoints or credentials. '
      + 'Ids must be unique, edges must join existing nodes, and an input port takes at most one edge; '
      + 'those checks are made by Atelier when it opens the file.',
    ...body,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
