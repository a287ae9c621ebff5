/**
 * The shape of a node type: one plain definition object per file.
 * Nodes know nothing of React, the worker or the DOM; every effect goes through the RunContext.
 */
import type { z } from 'zod';
import type { EngineId } from '../api/catalog';
import type { ChatClient, ImageClient } from '../api/client-types';
import type { ImageRequest } from '../api/image-schema';
import type { SeedControl } from './seed-control';

/**
 * The kinds of value a port carries. `texts` and `images` are lists (a text list, an image
 * list): a list that reaches an input taking one value runs the node once per item (fan-out).
 */
export type PortKind = 'text' | 'number' | 'image' | 'images' | 'texts';

/** An image as it travels between nodes: base64, exactly as the API sent or wants it. */
export interface ImageData {
  b64: string;
  mime: string;
  /** The seed that made it, when a generator made it. */
  seed?: number;
  width?: number;
  height?: number;
  /**
   * The server of a pool that made it, by the label the person gave it (never its address). No
   * part of a cache key: which GPU drew a picture does not change what it is (workers/hash.ts).
   */
  madeOn?: string;
}

/** A value on a wire; it always carries its kind. Conversion lives in `values.ts`. */
export type Value =
  | { kind: 'text'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'image'; value: ImageData }
  | { kind: 'images'; value: ImageData[] }
  | { kind: 'texts'; value: string[] };

export interface PortSpec {
  /** Unique among the node's inputs (or outputs); edges refer to it by this name. */
  name: string;
  kind: PortKind;
  label: string;
  /** An input that may stay unconnected. */
  optional?: boolean;
  /**
   * The parameter this input supplies when connected (a prompt, a seed): the port and the
   * parameter share the name, and a connected port wins over the form's value.
   */
  param?: string;
  /**
   * Kinds this input takes as they are, without conversion (Preview takes text, number, image or
   * a list). When absent the input takes `kind`, and what converts to it (`nodes/values.ts`). A
   * list kind here (or as `kind`) makes the input collect a list whole rather than fan out over it.
   */
  accepts?: readonly PortKind[];
  description?: string;
  /**
   * An input an empty (or blank) text must not pass: what an empty one would mean ("the engine
   * gets no prompt to follow"). A wired empty text stops the node before it sends anything.
   */
  emptyMeans?: string;
}

/** A problem with one parameter of one node. */
export interface ParamIssue {
  param: string;
  message: string;
}

export type NodeCategory = 'input' | 'text' | 'image' | 'output';

/** Everything a node's run may touch, and its only way to the world. The worker, CLI and tests supply it. */
export interface RunContext {
  signal: AbortSignal;
  api: { image: ImageClient; chat: ChatClient };
  /** User settings a node may read (never credentials). */
  settings: { chatModel: string };
  /** Fraction done, 0 to 1, with an optional word on what is happening. */
  progress(fraction: number, message?: string): void;
  /** Text as it streams in (chat). */
  partialText(delta: string): void;
  /**
   * A fresh seed for a node whose seed is random. The node sends it, so the seed that made an
   * image is known even from a service that does not report it back (2.6 shows only image_b64).
   */
  randomSeed(): number;
}

export interface RunArgs<P> {
  params: P;
  /** Connected inputs, already converted to the port's kind. Param ports are merged into params. */
  inputs: Record<string, Value | undefined>;
  ctx: RunContext;
}

export interface NodeDefinition<P extends Record<string, unknown> = Record<string, unknown>> {
  /** Stable id written in workflow files, e.g. 'text-to-image'. */
  type: string;
  /** Bumped when run's behaviour changes; part of the cache key. */
  version: number;
  title: string;
  category: NodeCategory;
  description: string;
  /** Parameters by name, with defaults; parsed before run. */
  params: z.ZodType<P>;
  /**
   * The parameters the node itself shows on the canvas (the prompt, and the few a person changes
   * most), in any order; the form keeps the schema's order. The rest are in the inspector beside
   * the canvas, and under the node's "More options". Without it the node shows every field.
   */
  mainFields?: readonly (keyof P & string)[];
  /** Inputs; a function where they depend on parameters (Text's `{{name}}` placeholders). */
  inputs: readonly PortSpec[] | ((params: P) => readonly PortSpec[]);
  /** Outputs; a function where they depend on parameters (a ComfyUI pipeline's save nodes). */
  outputs: readonly PortSpec[] | ((params: P) => readonly PortSpec[]);
  /**
   * Problems the form can show before anything is sent, each naming its parameter (rules that
   * span fields, such as a resolution the chosen engine does not support). Schema errors are
   * found by `params` already; this adds the rest.
   */
  validate?(params: P, connected: ReadonlySet<string>): ParamIssue[];
  /**
   * Image nodes: the request the node will send, as far as it is known before a run (connected
   * images as stand-ins). The chosen backend reviews it before anything is sent: what it will
   * approximate or leave out, and what it cannot do at all.
   */
  imageRequest?(params: P, connected: ReadonlySet<string>): { engine: EngineId; request: ImageRequest };
  /**
   * Its run does real work on this machine (decoding and encoding images, as the Contact sheet
   * does): the cost estimate, which works out free nodes' results to look further down the
   * graph, leaves it to the run.
   */
  localWork?: boolean;
  /**
   * The image backend the node runs on only (a ComfyUI workflow): with any other, the node is a
   * problem before the run, and the rest of the workflow still runs.
   */
  backend?: 'comfyui';
  /**
   * Seeds other than an image node's `seed`/`seed_mode` (a ComfyUI workflow's seed inputs), for
   * the seed modes and pinning (seed-control.ts). Image nodes need not say.
   */
  seeds?: SeedControl<P>;
  /** False when a run cannot be reproduced from its inputs (a random seed). Default true. */
  cacheable?(params: P): boolean;
  run(args: RunArgs<P>): Promise<Record<string, Value>>;
}

/** Any node definition, for registries and the executor. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyNodeDefinition = NodeDefinition<any>;
