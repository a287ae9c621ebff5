/**
 * The layers hold because lint holds them: for each folder, an import that crosses its layer
 * fails `npm run lint`, and one that stays inside passes.
 */
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

// The repository's config, without the type-aware rules: the snippets are files that do not
// exist, which the TypeScript project service cannot type.
const eslint = new ESLint({ overrideConfig: [tseslint.configs.disableTypeChecked] });

/** The rules `code` breaks when it sits at `filePath`. */
async function broken(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => m.ruleId ?? m.message);
}

const CASES: { file: string; bad: string; good: string; rule: string }[] = [
  { file: 'api/layer-check.ts', bad: "import type { Workflow } from '../workflow/schema';\nexport type W = Workflow;\n", good: "import type { ApiError } from './errors';\nexport type E = ApiError;\n", rule: 'no-restricted-imports' },
  { file: 'api/backends/layer-check.ts', bad: "import type { NodeOutputs } from '../../workers/events';\nexport type O = NodeOutputs;\n", good: "import type { ApiError } from '../errors';\nexport type E = ApiError;\n", rule: 'no-restricted-imports' },
  { file: 'api/layer-check.ts', bad: 'export const lang = navigator.language;\n', good: 'export const lang = "en";\n', rule: 'no-restricted-globals' },
  { file: 'workflow/layer-check.ts', bad: "import type { RunSummary } from '../workers/events';\nexport type S = RunSummary;\n", good: "import type { Workflow } from './schema';\nexport type W = Workflow;\n", rule: 'no-restricted-imports' },
  { file: 'workflow/layer-check.ts', bad: 'export const here = document.title;\n', good: 'export const here = "";\n', rule: 'no-restricted-globals' },
  { file: 'workers/layer-check.ts', bad: "import { useState } from 'react';\nexport const u = useState;\n", good: "import type { Workflow } from '../workflow/schema';\nexport type W = Workflow;\n", rule: 'no-restricted-imports' },
  { file: 'workers/layer-check.ts', bad: "import { settingsStore } from '../src/settings/settings-store';\nexport const s = settingsStore;\n", good: "import { createMemoryCache } from './cache';\nexport const c = createMemoryCache;\n", rule: 'no-restricted-imports' },
  { file: 'server/layer-check.ts', bad: "import { starterWorkflow } from '../src/store/starter';\nexport const s = starterWorkflow;\n", good: "import { createWorkflow } from '../workflow/create';\nexport const c = createWorkflow;\n", rule: 'no-restricted-imports' },
  { file: 'cli/layer-check.ts', bad: "import { starterWorkflow } from '../src/store/starter';\nexport const s = starterWorkflow;\n", good: "import { createWorkflow } from '../workflow/create';\nexport const c = createWorkflow;\n", rule: 'no-restricted-imports' },
  { file: 'nodes/layer-check.ts', bad: "import { useState } from 'react';\nexport const u = useState;\n", good: "import { portAccepts } from './values';\nexport const p = portAccepts;\n", rule: 'no-restricted-imports' },
  { file: 'src/run/layer-check.ts', bad: "import { planBatch } from '../../workers/seeds';\nexport const p = planBatch;\n", good: "import type { BatchPlan } from '../../workers/seeds';\nexport type B = BatchPlan;\n", rule: '@typescript-eslint/no-restricted-imports' },
  { file: 'src/history/layer-check.ts', bad: "import { type SeedChange, pinSeedsUsed } from '../../workers/seeds';\nexport const p = pinSeedsUsed;\nexport type C = SeedChange;\n", good: "import type { SeedChange } from '../../workers/seeds';\nexport type C = SeedChange;\n", rule: '@typescript-eslint/no-restricted-imports' },
  { file: 'src/store/layer-check.ts', bad: "import { endsOf } from '../canvas/connect-handlers';\nexport const e = endsOf;\n", good: "import { canConnect } from './can-connect';\nexport const c = canConnect;\n", rule: 'no-restricted-imports' },
];

describe('lint keeps the layers', () => {
  for (const { file, bad, good, rule } of CASES) {
    it(`${file}: ${bad.split('\n')[0]}`, async () => {
      expect(await broken(file, bad)).toContain(rule);
      expect(await broken(file, good)).toEqual([]);
    });
  }
});
