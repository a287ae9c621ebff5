/**
 * The workflow's app in the editor: marking parameters as inputs and nodes as outputs, their
 * order and labels. Each action is one undo step; the app is part of the document, so it is saved,
 * autosaved and undone like the graph. See workflow/app.ts for what an app is.
 */
import type { Draft } from 'immer';
import type { App } from '../../workflow/app';
import type { Workflow } from '../../workflow/schema';
import type { Core } from './core';

/** A command-line name for an input from its parameter's name, free among `taken`. */
export function appInputName(param: string, taken: ReadonlySet<string>): string {
  let base = param.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^[^A-Za-z]+/, '').slice(0, 56);
  if (base === '') base = 'input';
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Removes an app left empty, inside a document change (entries on deleted nodes go in core.ts, app-prune.ts). */
function dropEmptyApp(draft: Draft<Workflow>): void {
  if (draft.app && draft.app.inputs.length === 0 && draft.app.outputs.length === 0) delete draft.app;
}

const draftApp = (draft: Draft<Workflow>): Draft<App> => (draft.app ??= { inputs: [], outputs: [] });

export function createAppActions(core: Core) {
  const nodeExists = (id: string) => core.get().index.nodeById.has(id);
  /** Moves entry `from` of a list to place `to`; nothing (and no undo step) when either is out of range or they are the same. */
  const moveTo = (list: 'inputs' | 'outputs', from: number, to: number, label: string): void => {
    const length = core.get().doc.app?.[list].length ?? 0;
    if (from < 0 || from >= length || to < 0 || to >= length || from === to || !Number.isInteger(to)) return;
    core.change({ label }, (draft) => {
      const entries: unknown[] = draftApp(draft)[list];
      const [moved] = entries.splice(from, 1);
      entries.splice(to, 0, moved);
    });
  };
  const actions = {
    /** Shows a node's parameter in the app's form; returns the input's name (the existing one if already shown). */
    markAppInput(nodeId: string, param: string, label?: string): string | undefined {
      if (!nodeExists(nodeId)) return undefined;
      const inputs = core.get().doc.app?.inputs ?? [];
      const existing = inputs.find((i) => i.node === nodeId && i.param === param);
      if (existing) return existing.name;
      const name = appInputName(param, new Set(inputs.map((i) => i.name)));
      core.change({ label: 'add app input' }, (draft) => {
        draftApp(draft).inputs.push({ name, node: nodeId, param, ...(label?.trim() ? { label: label.trim() } : {}) });
      });
      return name;
    },

    /** Shows a node's results in the app's gallery. */
    markAppOutput(nodeId: string, label?: string): void {
      if (!nodeExists(nodeId) || core.get().doc.app?.outputs.some((o) => o.node === nodeId)) return;
      core.change({ label: 'add app output' }, (draft) => {
        draftApp(draft).outputs.push({ node: nodeId, ...(label?.trim() ? { label: label.trim() } : {}) });
      });
    },

    unmarkAppInput(name: string): void {
      if (!core.get().doc.app?.inputs.some((i) => i.name === name)) return;
      core.change({ label: 'remove app input' }, (draft) => {
        draftApp(draft).inputs = draftApp(draft).inputs.filter((i) => i.name !== name);
        dropEmptyApp(draft);
      });
    },

    unmarkAppOutput(nodeId: string): void {
      if (!core.get().doc.app?.outputs.some((o) => o.node === nodeId)) return;
      core.change({ label: 'remove app output' }, (draft) => {
        draftApp(draft).outputs = draftApp(draft).outputs.filter((o) => o.node !== nodeId);
        dropEmptyApp(draft);
      });
    },

    /** Moves an input up (-1) or down (+1) in the form. */
    moveAppInput(name: string, by: -1 | 1): void {
      const from = (core.get().doc.app?.inputs ?? []).findIndex((i) => i.name === name);
      if (from >= 0) actions.moveAppInputTo(name, from + by);
    },

    /** Moves an input to place `to` of the form (a drag in the side panel), as one undo step. */
    moveAppInputTo(name: string, to: number): void {
      const from = (core.get().doc.app?.inputs ?? []).findIndex((i) => i.name === name);
      moveTo('inputs', from, to, 'reorder app inputs');
    },

    /** Moves an output up (-1) or down (+1) in the gallery. */
    moveAppOutput(nodeId: string, by: -1 | 1): void {
      const from = (core.get().doc.app?.outputs ?? []).findIndex((o) => o.node === nodeId);
      if (from >= 0) actions.moveAppOutputTo(nodeId, from + by);
    },

    /** Moves an output to place `to` of the gallery (a drag in the side panel), as one undo step. */
    moveAppOutputTo(nodeId: string, to: number): void {
      const from = (core.get().doc.app?.outputs ?? []).findIndex((o) => o.node === nodeId);
      moveTo('outputs', from, to, 'reorder app outputs');
    },

    /** The output's label in the gallery; empty gives back the node's title. */
    labelAppOutput(nodeId: string, label: string): void {
      const output = core.get().doc.app?.outputs.find((o) => o.node === nodeId);
      if (!output || (output.label ?? '') === label.trim()) return;
      core.change({ label: 'label app output' }, (draft) => {
        const found = draftApp(draft).outputs.find((o) => o.node === nodeId)!;
        if (label.trim() === '') delete found.label;
        else found.label = label.trim();
      });
    },

    /** The input's label in the form; empty gives back the node's and parameter's titles. */
    labelAppInput(name: string, label: string): void {
      const current = core.get().doc.app?.inputs.find((i) => i.name === name);
      if (!current || (current.label ?? '') === label.trim()) return;
      core.change({ label: 'label app input' }, (draft) => {
        const input = draftApp(draft).inputs.find((i) => i.name === name)!;
        if (label.trim() === '') delete input.label;
        else input.label = label.trim();
      });
    },
  };
  return actions;
}
