/**
 * The run history's place in the side panel: a heading that opens and closes it. The panel
 * itself (its list, its IndexedDB store, its downloads) loads when first opened, not with the
 * first paint; whether it is open is remembered per browser, so a person who keeps it open finds
 * it open after a reload.
 */
import { lazy, Suspense, useId, useState } from 'react';
import './history-section.css';

const HistoryPanel = lazy(() => import('./HistoryPanel'));
const OPEN_KEY = 'atelier.history';

function readOpen(): boolean {
  try {
    return localStorage.getItem(OPEN_KEY) === 'open';
  } catch {
    return false;
  }
}

export function HistorySection() {
  const [open, setOpen] = useState(readOpen);
  const bodyId = useId();
  const toggle = () => {
    const next = !open;
    setOpen(next);
    try {
      localStorage.setItem(OPEN_KEY, next ? 'open' : 'closed');
    } catch {
      // Storage refused (a private window): the panel still opens, it is just not remembered.
    }
  };
  return (
    <section className="history" aria-label="Run history">
      <h2 className="run-panel__heading history__heading">
        <button type="button" className="history__toggle" aria-expanded={open} aria-controls={bodyId} onClick={toggle}>
          History
        </button>
      </h2>
      <div id={bodyId} className="history__body" hidden={!open}>
        {open ? (
          <Suspense fallback={<p className="run-estimate__note">Opening the history…</p>}>
            <HistoryPanel />
          </Suspense>
        ) : null}
      </div>
    </section>
  );
}
