/**
 * Which fields a node's form shows and with which control, worked out from the JSON Schema of its
 * parameters (`z.toJSONSchema(def.params, { io: 'input' })`, titles and descriptions from the
 * schemas' .meta) and a few rules the schema cannot express: resolutions are one choice of the
 * engine's pairs, SDXL-only fields hide on SD 1.5, prompts count tokens against the engine's limit.
 * Pure, so it is tested without a DOM.
 */
import { z } from 'zod';
import {
  ENGINE_FAMILY, ENGINE_LABEL, PREMIUM_SAMPLERS, PUBLIC_CONTROLNETS, REGULAR_SAMPLERS, RESOLUTIONS, TOKEN_LIMITS,
  formatResolution, isPremiumSampler, type EngineId, type ModelFamily,
} from '../../api/catalog';
import type { AnyNodeDefinition, PortSpec } from '../../nodes/types';

export type Widget =
  | 'text' | 'textarea' | 'prompt' | 'number' | 'slider' | 'select' | 'toggle' | 'resolution' | 'seed'
  | 'controlnet' | 'asset' | 'model' | 'weights' | 'triggers' | 'lines' | 'image' | 'engine';

export interface FieldOption {
  value: string;
  label: string;
  group?: string;
}

export interface FieldSpec {
  /** The parameter (for the resolution, 'width'; it sets 'height' too). */
  name: string;
  title: string;
  description?: string;
  widget: Widget;
  /**
   * 'main' fields show on the node (the definition's `mainFields`); 'more' fields sit in the
   * inspector and in the node's closed "More options".
   */
  section: 'main' | 'more';
  /** The value the node uses when the field is empty. */
  defaultValue?: unknown;
  options?: FieldOption[];
  min?: number;
  max?: number;
  integer?: boolean;
  maxLength?: number;
  /** Prompt fields: the engine's token limit. */
  tokenLimit?: number;
  /** The input port that can supply this parameter instead of the form. */
  port?: PortSpec;
}

interface JsonProp {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  /** A choice's words in the form, by value (`.meta({ optionLabels })`); the value itself otherwise. */
  optionLabels?: Record<string, string>;
  const?: unknown;
  anyOf?: JsonProp[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  maxLength?: number;
  additionalProperties?: JsonProp | boolean;
  items?: JsonProp;
  /** `.meta({ hidden: true })`: kept in the file, shown by another field's control or not at all. */
  hidden?: boolean;
}

const SDXL_ONLY = new Set(['prompt_2', 'negative_prompt_2', 'use_refiner', 'high_noise_frac', 'style_preset']);
const PROMPTS = new Set(['prompt', 'negative_prompt', 'prompt_2', 'negative_prompt_2']);
const ASSETS = new Set(['checkpoint', 'vae']);

const schemaMemo = new WeakMap<AnyNodeDefinition, Record<string, JsonProp>>();

/** The JSON Schema properties of a definition's parameters (computed once per definition). */
export function paramProperties(def: AnyNodeDefinition): Record<string, JsonProp> {
  let props = schemaMemo.get(def);
  if (!props) {
    const schema = z.toJSONSchema(def.params, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, JsonProp> };
    props = schema.properties ?? {};
    schemaMemo.set(def, props);
  }
  return props;
}

/** The model family of a node's chosen engine, for nodes that have one. */
export function familyOf(params: Record<string, unknown>, props: Record<string, JsonProp>): ModelFamily | undefined {
  const prop = props.engine;
  if (!prop) return undefined;
  const engine = (typeof params.engine === 'string' ? params.engine : (prop.default ?? prop.const)) as EngineId;
  return ENGINE_FAMILY[engine];
}

function samplerOptions(): FieldOption[] {
  return [
    ...REGULAR_SAMPLERS.map((s) => ({ value: s, label: s, group: 'Regular' })),
    ...PREMIUM_SAMPLERS.map((s) => ({ value: s, label: `${s} (2×)`, group: 'Premium: twice the price' })),
  ];
}

export function resolutionOptions(family: ModelFamily): FieldOption[] {
  const pairs = RESOLUTIONS[family];
  const first = pairs[0]!;
  return [
    { value: '', label: `Engine default (${formatResolution(first).replace('x', '×')})` },
    ...pairs.map((r) => ({ value: formatResolution(r), label: formatResolution(r).replace('x', '×') })),
  ];
}

function widgetFor(name: string, prop: JsonProp, def: AnyNodeDefinition): Widget | undefined {
  if (prop.const !== undefined || prop.hidden === true) return undefined;
  if (name === 'engine' && prop.enum) return 'engine';
  if (name === 'sampler' || prop.enum) return 'select';
  if (name === 'seed') return 'seed';
  if (name === 'controlnet') return 'controlnet';
  if (name === 'model' && def.category === 'text') return 'model';
  if (ASSETS.has(name)) return 'asset';
  if (PROMPTS.has(name) && def.category === 'image') return 'prompt';
  const variants = prop.anyOf ?? [prop];
  const main = variants.find((v) => v.type !== 'null') ?? prop;
  switch (main.type) {
    case 'boolean':
      return 'toggle';
    case 'number':
    case 'integer': {
      const span = (main.maximum ?? Infinity) - (main.minimum ?? -Infinity);
      return main.type === 'number' && span <= 2 ? 'slider' : 'number';
    }
    case 'string':
      return (main.maxLength ?? 0) > 1000 ? 'textarea' : 'text';
    case 'object': {
      if (variants.some((v) => v.type === 'null')) return 'image';
      const values = typeof main.additionalProperties === 'object' ? main.additionalProperties : undefined;
      return values?.type === 'string' ? 'triggers' : 'weights';
    }
    case 'array':
      return 'lines';
    default:
      return undefined;
  }
}

function optionsFor(name: string, prop: JsonProp): FieldOption[] | undefined {
  if (name === 'sampler') return samplerOptions();
  if (name === 'engine') {
    return (prop.enum ?? []).map((e) => ({ value: String(e), label: ENGINE_LABEL[e as EngineId] ?? String(e) }));
  }
  if (!prop.enum) return undefined;
  const list = prop.enum.map((e) => ({ value: String(e), label: prop.optionLabels?.[String(e)] ?? String(e) }));
  return prop.default === undefined ? [{ value: '', label: 'None' }, ...list] : list;
}

/** Whether a field applies to the node as its parameters stand (engine, refiner). */
function applies(name: string, params: Record<string, unknown>, family: ModelFamily | undefined, props: Record<string, JsonProp>): boolean {
  if (family !== undefined && SDXL_ONLY.has(name) && family !== 'sdxl') return false;
  if (name === 'high_noise_frac') return (params.use_refiner ?? props.use_refiner?.default) === true;
  return true;
}

/** Whether a parameter shows on the node itself: one of its definition's main fields (all, without a list). */
export function isMainField(def: AnyNodeDefinition, name: string): boolean {
  return def.mainFields === undefined || def.mainFields.includes(name);
}

/** The fields to show for a node with these parameters, in schema order. */
export function planFields(def: AnyNodeDefinition, params: Record<string, unknown>, inputs: readonly PortSpec[]): FieldSpec[] {
  const props = paramProperties(def);
  const family = familyOf(params, props);
  const ports = new Map(inputs.filter((p) => p.param !== undefined).map((p) => [p.param!, p]));
  const fields: FieldSpec[] = [];
  for (const [name, prop] of Object.entries(props)) {
    if (name === 'height' && props.width) continue;
    if (!applies(name, params, family, props)) continue;
    const isResolution = name === 'width' && props.height !== undefined && family !== undefined;
    const widget = isResolution ? 'resolution' : widgetFor(name, prop, def);
    if (widget === undefined) continue;
    const main = (prop.anyOf ?? [prop]).find((v) => v.type !== 'null') ?? prop;
    const spec: FieldSpec = {
      name,
      title: isResolution ? 'Resolution' : (prop.title ?? name),
      widget,
      section: isMainField(def, name) ? 'main' : 'more',
    };
    const description = isResolution ? `The engine's supported sizes, width × height.` : prop.description;
    if (description !== undefined) spec.description = description;
    if (prop.default !== undefined) spec.defaultValue = prop.default;
    const options = isResolution ? resolutionOptions(family) : optionsFor(name, prop);
    if (options) spec.options = options;
    if (main.minimum !== undefined) spec.min = main.minimum;
    else if (main.exclusiveMinimum !== undefined) spec.min = main.exclusiveMinimum + (main.type === 'integer' ? 1 : 0);
    if (main.maximum !== undefined && main.maximum < Number.MAX_SAFE_INTEGER) spec.max = main.maximum;
    if (main.type === 'integer') spec.integer = true;
    if (main.maxLength !== undefined) spec.maxLength = main.maxLength;
    if (widget === 'prompt' && family !== undefined) spec.tokenLimit = TOKEN_LIMITS[family];
    const port = ports.get(name);
    if (port) spec.port = port;
    fields.push(spec);
  }
  return fields;
}

/** Public ControlNet checkpoints, those the engine family runs first. */
export function controlNetOptions(family: ModelFamily | undefined): FieldOption[] {
  const suffix = family === 'sd15' ? '_sd15' : '_sdxl';
  return [...PUBLIC_CONTROLNETS]
    .sort((a, b) => Number(b.endsWith(suffix)) - Number(a.endsWith(suffix)))
    .map((c) => ({ value: c, label: c, group: c.endsWith(suffix) ? 'For this engine' : 'Other public checkpoints' }));
}

export { isPremiumSampler };
