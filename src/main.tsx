/**
 * Start-up: restore the autosaved work (or open the starter workflow on a first visit), then
 * render the editor and keep autosaving.
 */
// First: it must run before any module builds a zod schema.
import '../api/zod-jitless';
import '@xyflow/react/dist/style.css';
import './styles/theme.css';
import './styles/app.css';
import './styles/node.css';
import './styles/form.css';
import type { Viewport } from '@xyflow/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { registerComfyWorkflowForm } from './comfy';
import { readAutosave, startAutosave } from './files/autosave';
import { warmExportCheck } from './files/export-check';
import { registerMaskPainter } from './mask';
import { createEditorStore } from './store/editor-store';

async function start(): Promise<void> {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  registerMaskPainter();
  registerComfyWorkflowForm();
  warmExportCheck();
  const restored = await readAutosave();
  const store = createEditorStore();
  if (restored) store.load(restored.workflow, { asInput: restored.asInput, dirty: restored.dirty });

  let viewport: Viewport | undefined = restored?.viewport;
  const autosave = startAutosave(store, () => viewport);
  const onViewportChange = (next: Viewport) => {
    viewport = next;
    autosave.touch();
  };
  createRoot(root).render(
    <StrictMode>
      <App store={store} {...(viewport ? { viewport } : {})} onViewportChange={onViewportChange} />
    </StrictMode>,
  );
}

void start();
