/**
 * What the canvas says to a screen reader as it happens (a node selected, a wire begun or made
 * from the keyboard): one polite live region for the page. Saying the same words again is
 * heard again.
 */
import { createSmallStore, useSmallStore } from './small-store';

const said = createSmallStore<{ text: string; n: number }>({ text: '', n: 0 });

export function announce(text: string): void {
  said.set((current) => ({ text, n: current.n + 1 }));
}

export function Announcer() {
  const { text, n } = useSmallStore(said);
  // A new element per message: a live region re-reads content that is replaced, not repeated.
  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
      <span key={n}>{text}</span>
    </div>
  );
}
