/** Everything the editor bundle is built from; a change in any of them calls for a rebuild. */
export declare const EDITOR_SOURCES: readonly string[];

export interface BuildOptions {
  /** Output only warnings and errors, and put vite's output in the error when the build fails (tests). Default: vite's output on this terminal. */
  quiet?: boolean;
  /** Called before building: dist/ has no build yet ('missing'), or is older than a source ('stale'). */
  onBuild?: (reason: 'missing' | 'stale') => void;
}

/**
 * Runs `vite build` in `root` when dist/ is missing or older than any of EDITOR_SOURCES; returns
 * whether it built. Throws when there is no index.html or the build fails.
 */
export declare function buildEditorIfStale(root: string, options?: BuildOptions): boolean;
