/**
 * Which parameter or port of an image node an API request field belongs to, so a problem the
 * API (or a backend) finds in a request is shown on the node's own field.
 */
import type { FieldIssue } from '../api/issues';
import type { ParamIssue } from './types';

const FIELD_TO_PARAM: Readonly<Record<string, string>> = {
  engine_id: 'engine',
  init_image: 'image',
  mask_image: 'mask',
  controlnet_image: 'control_image',
  transfer_images: 'trigger_word',
};

/** The node parameter (or port) behind a request field path such as `loras.svc:foo`. */
export function paramOfField(path: string): string {
  const field = path.split('.')[0] ?? path;
  return FIELD_TO_PARAM[field] ?? field;
}

export function toParamIssues(issues: readonly FieldIssue[]): ParamIssue[] {
  return issues.map((issue) => ({ param: paramOfField(issue.path), message: issue.message }));
}
