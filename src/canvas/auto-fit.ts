/**
 * For a moment after a workflow opens, the view keeps fitting it as its nodes get their sizes
 * (Canvas.tsx). Anything else that moves the view (the person touching the canvas, Fit view, F,
 * auto-layout, the view following a new node) ends that moment, so the two never fight.
 */
let until = 0;

export const autoFit = {
  /** Keep fitting for `ms` from now. */
  start(ms: number): void {
    until = performance.now() + ms;
  },
  stop(): void {
    until = 0;
  },
  active(): boolean {
    return until !== 0 && performance.now() <= until;
  },
};
