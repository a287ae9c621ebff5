/**
 * For code the first paint does not need but the first gesture may (immer, the copy check, the
 * nodes' run status view): `start` is called once, at the person's first pointer press or key
 * anywhere on the page, before the page's own handlers see it.
 */
export function onFirstWork(start: () => void): () => void {
  const stop = () => {
    window.removeEventListener('pointerdown', fire, { capture: true });
    window.removeEventListener('keydown', fire, { capture: true });
  };
  function fire() {
    stop();
    start();
  }
  window.addEventListener('pointerdown', fire, { capture: true });
  window.addEventListener('keydown', fire, { capture: true });
  return stop;
}
