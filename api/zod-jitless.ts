/**
 * Imported first by the editor's page and its worker, before any schema is built. zod compiles
 * object parsers with `new Function`, which the editor's Content-Security-Policy forbids (no
 * eval), and even its probe for eval, a caught `new Function('')`, is reported as a policy
 * violation. Off, zod parses the same way without compiling. Node (the server, the CLI, the
 * tests) keeps the compiled parsers.
 */
import { z } from 'zod';

z.config({ jitless: true });
