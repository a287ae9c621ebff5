/**
 * A node's title as the overview (below LOW_ZOOM) draws it. Clipping the title box with
 * overflow: hidden, as the full view does, costs a clip per node, and with hundreds of nodes in
 * view every frame of a pan becomes several times slower to composite; so the overview draws the
 * title unclipped and cuts the text here instead, to about the width of a node.
 */

/** Roughly how many average characters of the overview's 22px bold title fit across a node. */
export const OVERVIEW_TITLE_UNITS = 20;

/** Characters about twice as wide as a Latin letter: CJK, Hangul, kana, fullwidth forms. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** `title` when it fits, else its start and an ellipsis; wide characters count double. */
export function overviewTitle(title: string, units = OVERVIEW_TITLE_UNITS): string {
  let used = 0;
  let end = 0;
  for (const ch of title) {
    used += WIDE.test(ch) ? 2 : 1;
    if (used > units) return `${title.slice(0, end).trimEnd()}…`;
    end += ch.length;
  }
  return title;
}
