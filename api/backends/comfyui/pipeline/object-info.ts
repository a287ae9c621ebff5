/**
 * ComfyUI's `GET /object_info` (server.py `node_info`), read into Maps: per class its inputs in
 * declared order (`input_order` when the server sends it, else the order of `required` then
 * `optional`), each input's type, range and choices, its outputs and whether it is an output node.
 * Combo inputs come as `[[choices…], {options}]` (classic nodes) or `["COMBO", {options: […]}]`.
 */

/** Types the ComfyUI frontend draws as a widget (a value in the node) rather than a socket. */
const WIDGET_TYPES = new Set(['INT', 'FLOAT', 'STRING', 'BOOLEAN', 'COMBO']);

export interface InputInfo {
  name: string;
  /** `INT`, `FLOAT`, `STRING`, `BOOLEAN`, `COMBO`, or a socket type such as `MODEL` or `IMAGE`. */
  type: string;
  optional: boolean;
  /** A widget (a value) rather than a socket (a link). */
  widget: boolean;
  choices?: string[];
  min?: number;
  max?: number;
  default?: unknown;
  /** The frontend adds a `control_after_generate` widget after this one (seeds). */
  control?: boolean;
  /** The frontend adds an upload button widget after this one (LoadImage's `image_upload`). */
  upload?: boolean;
}

export interface ClassInfo {
  name: string;
  displayName?: string;
  inputs: InputInfo[];
  outputs: string[];
  outputNode: boolean;
  /** `nodes`, `comfy_extras.…`, `custom_nodes.<pack>`: where the class comes from. */
  module?: string;
}

export type ObjectInfo = Map<string, ClassInfo>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function readInput(name: string, spec: unknown, optional: boolean): InputInfo | undefined {
  if (!Array.isArray(spec) || spec.length === 0) return undefined;
  const [first, rawOptions] = spec as [unknown, unknown];
  const options = isObject(rawOptions) ? rawOptions : {};
  let type: string;
  let choices: string[] | undefined;
  if (Array.isArray(first)) {
    type = 'COMBO';
    choices = first.map((c) => String(c));
  } else if (typeof first === 'string') {
    type = first;
    if (type === 'COMBO' && Array.isArray(options.options)) choices = options.options.map((c) => String(c));
  } else {
    return undefined;
  }
  // A forced input is drawn as a socket only (no widget, no value in widgets_values).
  const widget = WIDGET_TYPES.has(type) && options.forceInput !== true;
  const cag = options.control_after_generate;
  const control = widget && (cag !== undefined ? cag !== false : type === 'INT' && (name === 'seed' || name === 'noise_seed'));
  const upload = widget && (options.image_upload === true || options.video_upload === true || options.audio_upload === true);
  return {
    name, type, optional, widget,
    ...(choices === undefined ? {} : { choices }),
    ...(num(options.min) === undefined ? {} : { min: num(options.min) }),
    ...(num(options.max) === undefined ? {} : { max: num(options.max) }),
    ...('default' in options ? { default: options.default } : {}),
    ...(control ? { control: true } : {}),
    ...(upload ? { upload: true } : {}),
  };
}

/** Reads `/object_info`'s JSON; classes it cannot read are left out rather than guessed. */
export function readObjectInfo(json: unknown): ObjectInfo {
  const info: ObjectInfo = new Map();
  if (!isObject(json)) return info;
  for (const name of Object.keys(json)) {
    const raw = json[name];
    if (!isObject(raw) || !isObject(raw.input)) continue;
    const groups: ['required' | 'optional', boolean][] = [['required', false], ['optional', true]];
    const order = isObject(raw.input_order) ? raw.input_order : {};
    const inputs: InputInfo[] = [];
    for (const [group, optional] of groups) {
      const specs = raw.input[group];
      if (!isObject(specs)) continue;
      const listed = order[group];
      const names = Array.isArray(listed) && listed.every((n) => typeof n === 'string') ? listed : Object.keys(specs);
      for (const inputName of names) {
        if (!Object.hasOwn(specs, inputName)) continue;
        const input = readInput(inputName, specs[inputName], optional);
        if (input !== undefined) inputs.push(input);
      }
    }
    const outputs = Array.isArray(raw.output) ? raw.output.map((o) => (Array.isArray(o) ? 'COMBO' : String(o))) : [];
    info.set(name, {
      name, inputs, outputs, outputNode: raw.output_node === true,
      ...(typeof raw.display_name === 'string' ? { displayName: raw.display_name } : {}),
      ...(typeof raw.python_module === 'string' ? { module: raw.python_module } : {}),
    });
  }
  return info;
}

/** One input's description, when the class and input are known. */
export function inputInfo(info: ObjectInfo | undefined, classType: string, input: string): InputInfo | undefined {
  return info?.get(classType)?.inputs.find((i) => i.name === input);
}
