/**
 * What the chosen image backend will do with each image node's request, found before a run from
 * the node's parameters (images as stand-ins): the fields it approximates or leaves out, and what
 * it cannot do at all. A refusal is a problem that stops the run; the notes are shown beside the
 * run's cost. With no backend review (the service's API), there is nothing to say.
 */
import type { ImageClient, TranslationReview } from '../api/client-types';
import { paramOfField } from '../nodes/field-params';
import type { AnyNodeDefinition, ParamIssue } from '../nodes/types';

/**
 * The image client's review; `pipelines` says whether it can run a whole ComfyUI workflow (a
 * ComfyUI backend is chosen), so a pipeline node is a problem before the run when it cannot.
 */
export type ReviewRequest = NonNullable<ImageClient['review']> & { readonly pipelines?: boolean };

/** The client's review, bound to it (saying nothing when it has none), and whether it runs pipelines. */
export function reviewOf(client: ImageClient): ReviewRequest {
  const review = client.review;
  const bound: NonNullable<ImageClient['review']> = review === undefined ? () => undefined : (engine, request) => review.call(client, engine, request);
  return Object.assign(bound, { pipelines: client.runPipeline !== undefined });
}

export { NEEDS_COMFYUI } from '../nodes/comfy-choices';

/** The review of one node's request, or undefined when the node sends no image request. */
export function reviewNode(
  def: AnyNodeDefinition,
  params: Record<string, unknown>,
  connected: ReadonlySet<string>,
  review: ReviewRequest | undefined,
): TranslationReview | undefined {
  if (review === undefined || def.imageRequest === undefined) return undefined;
  const { engine, request } = def.imageRequest(params, connected);
  return review(engine, request);
}

/** Each refusal as a problem of the node's own parameter, in the backend's name. */
export function refusalIssues(review: TranslationReview): ParamIssue[] {
  return review.refusals.map((r) => ({ param: paramOfField(r.path), message: `${review.label} cannot take this request: ${r.message}` }));
}
