/**
 * A component as a file of its own (export, import, My components): it reads back as written,
 * a file that is not a component or carries a hostile definition is refused with reasons, and
 * adding it to a workflow reuses the same content and renames a clashing id.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { componentWorkflow, definitionsFor, mergeDefinitions, readComponentFile } from '../../workflow/component-file';
import { WorkflowLoadError } from '../../workflow/errors';
import { serializeWorkflow } from '../../workflow/serialize';
import { createEditorStore } from '../../src/store/editor-store';
import { starterWorkflow } from '../../src/store/starter';
import { listMyComponents, removeMyComponent, saveMyComponent } from '../../src/components/my-components';
import { component, shout } from './helpers';

const wrapper = () => component({
  id: 'wrap', name: 'Wrap',
  nodes: [{ id: 'inner', type: 'component:shout', position: { x: 0, y: 0 }, params: {} }],
  edges: [], inputs: [], outputs: [{ name: 'out', source: { node: 'inner', port: 'out' } }], params: [],
});

const fileOf = (main = shout(), definitions = [main]) => serializeWorkflow(componentWorkflow({ main, definitions }));

describe('component files', () => {
  it('reads back what it wrote, with the components it uses inside', () => {
    const definitions = definitionsFor([shout(), wrapper()], 'wrap');
    expect(definitions.map((d) => d.id)).toEqual(['wrap', 'shout']);
    const pack = readComponentFile(fileOf(definitions[0], definitions));
    expect(pack.main).toEqual(wrapper());
    expect(pack.definitions.map((d) => d.id)).toEqual(['wrap', 'shout']);
  });

  it('refuses a workflow that is not one component, and hostile definitions, saying what and where', () => {
    const plain = serializeWorkflow(starterWorkflow());
    expect(() => readComponentFile(plain)).toThrow(/defines no component/);
    const wf = JSON.parse(fileOf()) as { nodes: unknown[] };
    wf.nodes.push({ id: 'extra', type: 'source', position: { x: 0, y: 0 }, params: {} });
    expect(() => readComponentFile(JSON.stringify(wf))).toThrow(/holds 2 nodes/);
    // A definition that contains itself.
    const self = JSON.parse(fileOf()) as { components: { nodes: { type: string }[] }[] };
    self.components[0]!.nodes[0]!.type = 'component:shout';
    let error: unknown;
    try {
      readComponentFile(JSON.stringify(self));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WorkflowLoadError);
    expect((error as WorkflowLoadError).issues.some((i) => /contains an instance of itself/.test(i.message) && i.path.startsWith('components[0]'))).toBe(true);
    // A token in an inner parameter never comes in.
    const secret = JSON.parse(fileOf()) as { components: { nodes: { params: Record<string, unknown> }[] }[] };
    secret.components[0]!.nodes[0]!.params.api_key = 'sk-abcdefghijklmnopqrstuvwxyz0123456789';
    const read = (() => {
      try {
        return JSON.stringify(readComponentFile(JSON.stringify(secret)));
      } catch (e) {
        return String(e);
      }
    })();
    expect(read).not.toContain('sk-abcdefghijklmnopqrstuvwxyz0123456789');
  });

  it('joins a workflow: the same content is used as it is, another under a free id', () => {
    const same = mergeDefinitions([shout()], { main: shout(), definitions: [shout()] });
    expect(same).toEqual({ components: [shout()], mainId: 'shout' });
    const other = component({ ...shout(), name: 'Shout louder', params: [] });
    const merged = mergeDefinitions([shout()], { main: wrapper(), definitions: [wrapper(), other] });
    expect(merged.mainId).toBe('wrap');
    expect(merged.components.map((c) => c.id)).toEqual(['shout', 'wrap', 'shout-2']);
    expect(merged.components[1]!.nodes[0]!.type).toBe('component:shout-2');
  });

  it('adds an instance from a file in one undo step', () => {
    const store = createEditorStore({ initial: starterWorkflow() });
    store.select({ nodes: ['image-to-image'] });
    store.makeComponent({ name: 'Restyle' });
    const def = store.getState().doc.components![0]!;
    const fresh = createEditorStore({ initial: starterWorkflow() });
    const id = fresh.addComponent({ main: def, definitions: [def] }, { x: 0, y: 600 });
    expect(fresh.getState().doc.nodes.find((n) => n.id === id)).toMatchObject({ type: 'component:restyle', params: {} });
    expect(fresh.getState().doc.components).toEqual([def]);
    fresh.undo();
    expect(fresh.getState().doc.components).toBeUndefined();
    expect(fresh.getState().doc.nodes.some((n) => n.id === id)).toBe(false);
  });
});

describe('My components', () => {
  it('keeps saved components in IndexedDB, replaces one saved again, and refuses to save what is not a component', async () => {
    await saveMyComponent(fileOf());
    await saveMyComponent(fileOf(component({ ...shout(), name: 'Shout again' })));
    const list = await listMyComponents();
    expect(list.map((c) => c.main.name)).toEqual(['Shout again']);
    await expect(saveMyComponent('{"format":"atelier.workflow"}')).rejects.toThrow();
    await removeMyComponent('shout');
    expect(await listMyComponents()).toEqual([]);
  });
});
