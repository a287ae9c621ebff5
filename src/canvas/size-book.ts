/**
 * Node sizes as drawn at full zoom, for auto-layout, frames and placing new nodes: the overview
 * draws nodes smaller. A node never measured at full zoom takes its estimated size
 * (estimate-size.ts), or else the largest size seen for its type.
 */
import { NODE_WIDTH, NOMINAL_NODE_HEIGHT } from '../store/frames';

export interface SizeBook {
  size(id: string, type: string): { width: number; height: number };
}

export interface RecordingSizeBook extends SizeBook {
  record(id: string, type: string, size: { width: number; height: number }): void;
  /** Another workflow was opened: sizes by id belong to the one before. */
  forgetNodes(): void;
}

/** A SizeBook fed with what the canvas measures at full zoom. */
export function createSizeBook(estimate: (id: string) => { width: number; height: number } | undefined = () => undefined): RecordingSizeBook {
  const byId = new Map<string, { width: number; height: number }>();
  const byType = new Map<string, { width: number; height: number }>();
  return {
    record(id, type, size) {
      byId.set(id, size);
      const seen = byType.get(type);
      if (!seen || size.height > seen.height) byType.set(type, size);
    },
    forgetNodes() {
      byId.clear();
    },
    size(id, type) {
      return byId.get(id) ?? estimate(id) ?? byType.get(type) ?? { width: NODE_WIDTH, height: NOMINAL_NODE_HEIGHT };
    },
  };
}
