/**
 * Input schemas for the hosted-provider doubles (fal, Replicate): each model's fields with their
 * types, ranges and enums, and a checker that answers what a pydantic model would (fal's apps
 * and Replicate's cog models are both pydantic): a missing required field, a wrong type, a value
 * out of range or not in its enum. Fields a model does not define are ignored, as pydantic does
 * by default, but reported to the test so a translation that sends them is caught.
 */

export type FieldRule =
  | { type: 'string'; required?: boolean }
  | { type: 'int' | 'number'; min?: number; max?: number; required?: boolean }
  | { type: 'boolean'; required?: boolean }
  | { type: 'enum'; values: readonly (string | number)[]; required?: boolean }
  /** An image: a data URI or an http(s) URL. */
  | { type: 'file'; required?: boolean }
  /** fal's image_size: one of its names, or `{width, height}`. */
  | { type: 'image_size'; names: readonly string[]; custom: boolean; required?: boolean }
  | { type: 'array'; required?: boolean };

export type InputSchema = Readonly<Record<string, FieldRule>>;

export interface FieldProblem {
  field: string;
  /** pydantic's words, e.g. "ensure this value is less than or equal to 4". */
  msg: string;
  /** pydantic's error type, e.g. "value_error.number.not_le". */
  type: string;
}

function checkOne(field: string, rule: FieldRule, value: unknown): FieldProblem | undefined {
  const bad = (msg: string, type: string): FieldProblem => ({ field, msg, type });
  switch (rule.type) {
    case 'string':
      return typeof value === 'string' ? undefined : bad('str type expected', 'type_error.str');
    case 'boolean':
      return typeof value === 'boolean' ? undefined : bad('value could not be parsed to a boolean', 'type_error.bool');
    case 'int':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return bad(`value is not a valid ${rule.type === 'int' ? 'integer' : 'float'}`, `type_error.${rule.type === 'int' ? 'integer' : 'float'}`);
      if (rule.type === 'int' && !Number.isInteger(value)) return bad('value is not a valid integer', 'type_error.integer');
      if (rule.min !== undefined && value < rule.min) return bad(`ensure this value is greater than or equal to ${rule.min}`, 'value_error.number.not_ge');
      if (rule.max !== undefined && value > rule.max) return bad(`ensure this value is less than or equal to ${rule.max}`, 'value_error.number.not_le');
      return undefined;
    }
    case 'enum':
      return rule.values.includes(value as string | number) ? undefined : bad(`value is not a valid enumeration member; permitted: ${rule.values.map((v) => `'${v}'`).join(', ')}`, 'type_error.enum');
    case 'file':
      return typeof value === 'string' && /^(data:[^,]*;base64,|https?:\/\/)/.test(value) ? undefined : bad('invalid or missing URL scheme', 'value_error.url.scheme');
    case 'image_size': {
      if (typeof value === 'string') return rule.names.includes(value) ? undefined : bad(`value is not a valid enumeration member; permitted: ${rule.names.join(', ')}`, 'type_error.enum');
      const size = value as { width?: unknown; height?: unknown } | null;
      if (!rule.custom || typeof size !== 'object' || size === null) return bad('value is not a valid image size', 'type_error');
      const ok = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= 14142;
      return ok(size.width) && ok(size.height) ? undefined : bad('width and height must be whole numbers from 1 to 14142', 'value_error');
    }
    case 'array':
      return Array.isArray(value) ? undefined : bad('value is not a valid list', 'type_error.list');
  }
}

/** Every problem with `input` under `schema`, and the fields it has that the schema does not. */
export function checkInput(schema: InputSchema, input: Record<string, unknown>): { problems: FieldProblem[]; unknown: string[] } {
  const problems: FieldProblem[] = [];
  for (const [field, rule] of Object.entries(schema)) {
    const value = input[field];
    if (value === undefined) {
      if (rule.required === true) problems.push({ field, msg: 'field required', type: 'value_error.missing' });
      continue;
    }
    const problem = checkOne(field, rule, value);
    if (problem !== undefined) problems.push(problem);
  }
  return { problems, unknown: Object.keys(input).filter((k) => !Object.hasOwn(schema, k)) };
}
