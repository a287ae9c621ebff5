/** The keyboard shortcuts, listed once: the help dialog shows this list. */
import { MOD } from './mod-key';

export interface Shortcut {
  keys: string;
  action: string;
  group: 'Edit' | 'Canvas' | 'File' | 'Run' | 'Mask painter';
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: `${MOD}+Z`, action: 'Undo (inside a text field: undo typing)', group: 'Edit' },
  { keys: `${MOD}+Shift+Z, ${MOD}+Y`, action: 'Redo', group: 'Edit' },
  { keys: `${MOD}+C / ${MOD}+X / ${MOD}+V`, action: 'Copy, cut, paste nodes, notes and groups (also between tabs and windows, as JSON text)', group: 'Edit' },
  { keys: `${MOD}+V with an image copied`, action: 'Paste it into the selected Image loader, or as a new Image loader', group: 'Edit' },
  { keys: `${MOD}+D`, action: 'Duplicate the selected nodes', group: 'Edit' },
  { keys: 'Delete, Backspace', action: 'Delete the selected nodes and wires', group: 'Edit' },
  { keys: `${MOD}+A`, action: 'Select everything', group: 'Edit' },
  { keys: 'F2', action: 'Rename the selected node or group', group: 'Edit' },
  { keys: `${MOD}+B`, action: 'Bypass the selected nodes (they pass their input on instead of running), or stop', group: 'Edit' },
  { keys: `${MOD}+.`, action: 'Collapse the selected nodes to their title bar and ports, or expand them (the buttons ▾ / ▸ on a node do the same)', group: 'Edit' },
  { keys: `${MOD}+G`, action: 'Frame the selected nodes and notes in a group', group: 'Edit' },
  { keys: `${MOD}+Shift+G`, action: 'Make a component of the selected nodes (name it, pick the fields it shows); right-click the selection does too', group: 'Edit' },
  { keys: 'Double-click a component, Enter', action: 'Open it to edit its nodes (every instance changes); the path above the canvas, or Escape, leads back', group: 'Edit' },
  { keys: 'N', action: 'Add a note (Enter on a selected note writes in it)', group: 'Canvas' },
  { keys: 'L', action: 'Auto-layout the selected nodes, or the whole workflow (a note beside a node goes with it)', group: 'Canvas' },
  { keys: `${MOD}+K, /`, action: 'Add a node (search the palette)', group: 'Canvas' },
  { keys: 'Double-click the canvas', action: 'Add a node where you clicked', group: 'Canvas' },
  { keys: 'Drag a wire to empty canvas', action: 'Add a node that takes it, already connected', group: 'Canvas' },
  { keys: 'Shift+click, Shift+drag', action: 'Add to the selection, select with a box', group: 'Canvas' },
  { keys: 'Arrow keys', action: 'Move the selected nodes', group: 'Canvas' },
  { keys: 'F', action: 'Fit the whole workflow in view', group: 'Canvas' },
  { keys: 'Escape', action: 'Clear the selection, close the palette', group: 'Canvas' },
  { keys: 'P', action: 'Collapse the side panel to Run and Cancel, or show it again (drag its left edge to resize it)', group: 'Canvas' },
  { keys: `${MOD}+O`, action: 'Open a workflow file', group: 'File' },
  { keys: `${MOD}+S`, action: 'Save (download) the workflow', group: 'File' },
  { keys: 'Drop a file on the canvas', action: 'A workflow (.json) opens; an image Atelier made opens the workflow inside it; any other image becomes an Image loader', group: 'File' },
  { keys: `${MOD}+Enter`, action: 'Run the workflow (as many times as the count beside Run)', group: 'Run' },
  { keys: `${MOD}+Shift+Enter`, action: 'Run to the selected node (it and what it needs)', group: 'Run' },
  { keys: `${MOD}+Alt+Enter`, action: 'Run from the selected node (it and everything after, afresh)', group: 'Run' },
  { keys: 'Right-click a node', action: 'Run to here, run from here', group: 'Run' },
  { keys: 'Escape', action: 'Cancel the run in progress', group: 'Run' },
  { keys: '?', action: 'This list', group: 'Canvas' },
  { keys: 'B / E', action: 'Brush (paints what is repainted) / eraser (keeps)', group: 'Mask painter' },
  { keys: '[ / ]', action: 'Smaller / larger brush', group: 'Mask painter' },
  { keys: 'X', action: 'Invert the mask (Clear empties it; both undoable)', group: 'Mask painter' },
  { keys: `${MOD}+Z, ${MOD}+Shift+Z`, action: "Undo / redo strokes: the painter's own history, apart from the graph's", group: 'Mask painter' },
  { keys: `${MOD}+S`, action: 'Save the mask (one graph edit: Undo in the editor takes it away)', group: 'Mask painter' },
  { keys: 'Escape', action: 'Close the painter without saving', group: 'Mask painter' },
];
