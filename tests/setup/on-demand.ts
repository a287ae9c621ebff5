/**
 * Code the editor's page fetches on demand is there from the start in the unit tests, as it is
 * once the person has started working: immer for the store's changes (src/store/produce.ts;
 * tests/editor/produce.test.ts covers changes made before it arrives) and the node types' own
 * code for validating and running (NodeDefinition.load, which the executor awaits itself).
 */
import { NODE_DEFINITIONS } from '../../nodes/index';
import { loadProducer } from '../../src/store/produce';

await Promise.all([loadProducer(), ...NODE_DEFINITIONS.flatMap((def) => (def.load ? [def.load()] : []))]);
