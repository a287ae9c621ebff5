/** A dropped PNG that ComfyUI saved, waiting for the person's choice (DropChoice.tsx); apart so the canvas loads no reader for it. */
import type { XY } from '../store/state';
import { createSmallStore } from '../ui/small-store';

export interface PendingDrop {
  file: File;
  /** Where it was dropped, in flow coordinates: where the node goes. */
  at: XY;
  /** Loads it as a picture (an Image loader), as any image dropped. */
  asPicture: () => void;
}

export const pendingDropStore = createSmallStore<PendingDrop | null>(null);
