#!/usr/bin/env node
// `atelier` (npx atelier, npm exec atelier): runs cli/ through tsx in this same process, so
// Ctrl-C reaches the CLI's own handler directly and no build step is needed.
import { register } from 'tsx/esm/api';

register();
const { runProcess } = await import('../cli/process.ts');
await runProcess();
