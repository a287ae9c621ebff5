/**
 * Which inputs of a ComfyUI pipeline name or hold a credential: apart from the importer, so the
 * ComfyUI workflow node's check can use it without loading the importer (discovery, the UI
 * format reader) into the editor's start.
 */
/** Input names that hold a key for a paid API (ComfyUI's API nodes and custom nodes alike). */
const CREDENTIAL_INPUT = /(^|[_\s-])(api[_\s-]?key|apikey|token|secret|password|passwd|auth|authorization|bearer)([_\s-]|$)|api_key_comfy_org|auth_token_comfy_org/i;
/** Values shaped like a key, whatever the input is called. */
const CREDENTIAL_VALUE = /(?<![A-Za-z0-9_-])(sk-[A-Za-z0-9_-]{20,}|comfyui-[A-Za-z0-9]{32,}|r8_[A-Za-z0-9]{30,}|hf_[A-Za-z0-9]{30,}|AIza[0-9A-Za-z_-]{35})/;

/** Whether an input of a pipeline node names or holds a credential. */
export function credentialInput(name: string, value: unknown): boolean {
  return (CREDENTIAL_INPUT.test(name) && !/max_tokens|tokens?_?count|tokenizer/i.test(name) && value !== '' && value !== null)
    || (typeof value === 'string' && CREDENTIAL_VALUE.test(value));
}

