/** Paths into a workflow document, written the way a person reads them: `edges[3].target.node`. */

export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Formats a path; keys that are not plain identifiers are quoted (`params["my key"]`). */
export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out === '' ? '(file)' : out;
}

/**
 * A path built one segment at a time while walking a document. Each step shares its parent, so
 * a walk costs one small object per value; the full path is made only when something is reported.
 */
export interface PathLink {
  readonly parent: PathLink | undefined;
  readonly segment: PathSegment;
  readonly depth: number;
}

export function extendPath(parent: PathLink | undefined, segment: PathSegment): PathLink {
  return { parent, segment, depth: (parent?.depth ?? 0) + 1 };
}

export function pathSegments(link: PathLink | undefined): PathSegment[] {
  const segments: PathSegment[] = [];
  for (let at = link; at; at = at.parent) segments.push(at.segment);
  return segments.reverse();
}

/** formatPath for a linked path. */
export function formatLink(link: PathLink | undefined): string {
  return formatPath(pathSegments(link));
}
