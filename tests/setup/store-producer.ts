/**
 * The unit tests' store makes its changes with immer from the first one, as the page does once
 * the person has started working (src/store/produce.ts fetches immer lazily; tests/editor/
 * produce.test.ts covers the changes made before it arrives).
 */
import { loadProducer } from '../../src/store/produce';

await loadProducer();
