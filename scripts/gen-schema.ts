/** Writes the workflow file's JSON Schema, generated from the zod schema, into public/schema/. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WORKFLOW_JSON_SCHEMA_PATH, renderWorkflowJsonSchema } from '../workflow/json-schema';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const target = resolve(root, WORKFLOW_JSON_SCHEMA_PATH);
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, renderWorkflowJsonSchema());
console.log(`wrote ${WORKFLOW_JSON_SCHEMA_PATH}`);
