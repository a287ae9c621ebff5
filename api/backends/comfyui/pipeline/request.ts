/**
 * What a run of a ComfyUI pipeline sends to a backend and gets back: the stored pipeline, the
 * values its chosen inputs take this time, the images to upload for its LoadImage nodes, and the
 * outputs to fetch. A backend that runs pipelines (ComfyUI's) implements `runPipeline`.
 */
import type { ImageCallOptions } from '../../types';
import type { ChoiceTarget, PipelineOutput } from './discover';
import type { StoredPipeline } from './model';

export interface PipelineRunRequest {
  pipeline: StoredPipeline;
  /** Literal inputs replaced for this run (fields, and text or number ports). */
  set: (ChoiceTarget & { value: unknown })[];
  /** Images uploaded for LoadImage / LoadImageMask inputs, as base64. */
  images: (ChoiceTarget & { b64: string })[];
  outputs: PipelineOutput[];
}

export interface PipelineImage {
  b64: string;
  mime: string;
  /** The file's name in ComfyUI's output (or temp) folder. */
  filename: string;
}

export interface PipelineRunResult {
  /** By output name, in the request's order. */
  outputs: { name: string; images: PipelineImage[]; texts: string[] }[];
  /** For the run's record: the prompt as sent (stored form), its classes, the files ComfyUI wrote. */
  record: { prompt: StoredPipeline; classes: string[]; files: string[] };
  /** A pool's: the label of the server that ran it (never its address). */
  server?: string;
}

/** Runs a pipeline on a backend that can (ComfyUI). */
export type RunPipeline = (request: PipelineRunRequest, options?: ImageCallOptions) => Promise<PipelineRunResult>;
