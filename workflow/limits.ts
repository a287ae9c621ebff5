/**
 * How big a workflow file may be. A file comes from anyone, so every dimension is bounded; the
 * bounds are generous where real workflows need room (an embedded image is a long string) and
 * tight where they do not (a title).
 */
export interface WorkflowLimits {
  /** Characters of the whole file (JSON is ASCII in practice, so about bytes). */
  maxFileChars: number;
  /** Nesting of arrays and objects; the document root is depth 1. */
  maxDepth: number;
  maxNodes: number;
  maxEdges: number;
  /** Any string value, chiefly an embedded base64 image in a node parameter. */
  maxStringChars: number;
  /** Any object key: keys are names, not data. */
  maxKeyChars: number;
}

export const DEFAULT_LIMITS: Readonly<WorkflowLimits> = Object.freeze({
  maxFileChars: 200 * 1024 * 1024,
  maxDepth: 64,
  maxNodes: 5000,
  maxEdges: 20_000,
  maxStringChars: 64 * 1024 * 1024,
  maxKeyChars: 200,
});

/** Lengths of the small strings, enforced by the schema. */
export const TEXT_LIMITS = Object.freeze({
  id: 100,
  type: 100,
  port: 100,
  edgeId: 200,
  title: 200,
  description: 10_000,
  timestamp: 40,
});

/** How far from the origin a node may sit: far beyond any canvas, short of float trouble. */
export const MAX_COORDINATE = 1e7;
