/**
 * The node classes the ComfyUI double knows, each with its INPUT_TYPES, RETURN_TYPES and
 * OUTPUT_NODE as in Comfy-Org/ComfyUI: nodes.py (CheckpointLoaderSimple, CLIPTextEncode,
 * EmptyLatentImage, LoadImage, ImageScale, VAEEncode, VAEEncodeForInpaint, SetLatentNoiseMask,
 * RepeatLatentBatch, KSampler, KSamplerAdvanced, LoraLoader, VAELoader, ControlNetLoader,
 * ControlNetApplyAdvanced, VAEDecode, SaveImage, PreviewImage), comfy_extras/nodes_canny.py
 * (Canny), nodes_clip_sdxl.py (CLIPTextEncodeSDXL, CLIPTextEncodeSDXLRefiner), nodes_mask.py
 * (ImageToMask); sampler and scheduler names from comfy/samplers.py. For ComfyUI pipelines (whole
 * workflows sent as they are): nodes.py UNETLoader, DualCLIPLoader, LoadImageMask;
 * comfy_extras/nodes_sd3.py (TripleCLIPLoader, EmptySD3LatentImage), nodes_flux.py
 * (FluxGuidance), nodes_model_advanced.py (ModelSamplingSD3, ModelSamplingFlux),
 * nodes_custom_sampler.py (KSamplerSelect, BasicScheduler, BasicGuider, RandomNoise,
 * SamplerCustomAdvanced), nodes_upscale_model.py (UpscaleModelLoader, ImageUpscaleWithModel),
 * nodes_primitive.py (PrimitiveStringMultiline), nodes_preview_any.py (PreviewAny: any input,
 * shown as text in its `ui`).
 * No custom node (FaceDetailer and the like) is here, as on a stock ComfyUI.
 */

/** `[type, options]`: a type name ("INT", "MODEL") or a combo list of the values allowed. */
export type InputSpec = [string | string[], Record<string, unknown>?];

export interface NodeClass {
  input: { required: Record<string, InputSpec>; optional?: Record<string, InputSpec>; hidden?: Record<string, string> };
  output: string[];
  outputNode?: boolean;
  category: string;
  /** VALIDATE_INPUTS: the inputs it takes (their list and bound checks are skipped) and its verdict. */
  validate?: { inputs: string[]; check: (values: Record<string, unknown>) => true | string };
}

/** What the double's ComfyUI has on disk. */
export interface Models {
  checkpoints: string[];
  loras: string[];
  vaes: string[];
  controlnets: string[];
  embeddings: string[];
  /** models/diffusion_models (UNETLoader). */
  unets: string[];
  /** models/text_encoders (the CLIP loaders). */
  textEncoders: string[];
  /** models/upscale_models. */
  upscalers: string[];
  /** The input folder: uploaded images by name. */
  inputs: Map<string, Uint8Array>;
}

export const MAX_RESOLUTION = 16384;
/** Python's 0xffffffffffffffff, as JSON carries it: a double. */
const U64_MAX = 2 ** 64;

export const SAMPLER_NAMES = [
  'euler', 'euler_cfg_pp', 'euler_ancestral', 'euler_ancestral_cfg_pp', 'heun', 'heunpp2', 'dpm_2', 'dpm_2_ancestral',
  'lms', 'dpm_fast', 'dpm_adaptive', 'dpmpp_2s_ancestral', 'dpmpp_2s_ancestral_cfg_pp', 'dpmpp_sde', 'dpmpp_sde_gpu',
  'dpmpp_2m', 'dpmpp_2m_cfg_pp', 'dpmpp_2m_sde', 'dpmpp_2m_sde_gpu', 'dpmpp_2m_sde_heun', 'dpmpp_2m_sde_heun_gpu', 'dpmpp_3m_sde', 'dpmpp_3m_sde_gpu', 'ddpm', 'lcm',
  'ipndm', 'ipndm_v', 'deis', 'res_multistep', 'res_multistep_cfg_pp', 'res_multistep_ancestral', 'res_multistep_ancestral_cfg_pp',
  'gradient_estimation', 'gradient_estimation_cfg_pp', 'er_sde', 'seeds_2', 'seeds_3', 'sa_solver', 'sa_solver_pece',
  'ddim', 'uni_pc', 'uni_pc_bh2',
];
export const SCHEDULER_NAMES = ['simple', 'sgm_uniform', 'karras', 'exponential', 'ddim_uniform', 'beta', 'normal', 'linear_quadratic', 'kl_optimal'];

const int = (d: number, min: number, max: number): InputSpec => ['INT', { default: d, min, max }];
const float = (d: number, min: number, max: number): InputSpec => ['FLOAT', { default: d, min, max }];
const text: InputSpec = ['STRING', { multiline: true, dynamicPrompts: true }];
const sampling = {
  cfg: float(8, 0, 100),
  sampler_name: [SAMPLER_NAMES] as InputSpec,
  scheduler: [SCHEDULER_NAMES] as InputSpec,
  positive: ['CONDITIONING'] as InputSpec,
  negative: ['CONDITIONING'] as InputSpec,
  latent_image: ['LATENT'] as InputSpec,
};

/** LoadImage lists the files of the input folder with an image extension (folder_paths.filter_files_content_types). */
const IMAGE_FILE = /\.(png|jpe?g|webp|gif|tiff?|bmp|avif)$/i;

export function nodeClasses(models: Models): Record<string, NodeClass> {
  return {
    CheckpointLoaderSimple: { category: 'loaders', input: { required: { ckpt_name: [models.checkpoints, { tooltip: 'The name of the checkpoint (model) to load.' }] } }, output: ['MODEL', 'CLIP', 'VAE'] },
    CLIPTextEncode: { category: 'conditioning', input: { required: { text, clip: ['CLIP'] } }, output: ['CONDITIONING'] },
    CLIPTextEncodeSDXL: {
      category: 'advanced/conditioning', output: ['CONDITIONING'],
      input: { required: {
        clip: ['CLIP'], width: int(1024, 0, MAX_RESOLUTION), height: int(1024, 0, MAX_RESOLUTION), crop_w: int(0, 0, MAX_RESOLUTION), crop_h: int(0, 0, MAX_RESOLUTION),
        target_width: int(1024, 0, MAX_RESOLUTION), target_height: int(1024, 0, MAX_RESOLUTION), text_g: text, text_l: text,
      } },
    },
    CLIPTextEncodeSDXLRefiner: {
      category: 'advanced/conditioning', output: ['CONDITIONING'],
      input: { required: { ascore: float(6, 0, 1000), width: int(1024, 0, MAX_RESOLUTION), height: int(1024, 0, MAX_RESOLUTION), text, clip: ['CLIP'] } },
    },
    EmptyLatentImage: { category: 'latent', output: ['LATENT'], input: { required: { width: int(512, 16, MAX_RESOLUTION), height: int(512, 16, MAX_RESOLUTION), batch_size: int(1, 1, 4096) } } },
    LoadImage: {
      category: 'image', output: ['IMAGE', 'MASK'],
      input: { required: { image: [[...models.inputs.keys()].filter((n) => IMAGE_FILE.test(n) && !n.includes('/')).sort(), { image_upload: true }] } },
      validate: { inputs: ['image'], check: (v) => (models.inputs.has(String(v.image)) ? true : `Invalid image file: ${String(v.image)}`) },
    },
    ImageScale: {
      category: 'image/upscaling', output: ['IMAGE'],
      input: { required: { image: ['IMAGE'], upscale_method: [['nearest-exact', 'bilinear', 'area', 'bicubic', 'lanczos']], width: int(512, 0, MAX_RESOLUTION), height: int(512, 0, MAX_RESOLUTION), crop: [['disabled', 'center']] } },
    },
    ImageToMask: { category: 'mask', output: ['MASK'], input: { required: { image: ['IMAGE'], channel: [['red', 'green', 'blue', 'alpha']] } } },
    VAEEncode: { category: 'latent', output: ['LATENT'], input: { required: { pixels: ['IMAGE'], vae: ['VAE'] } } },
    VAEEncodeForInpaint: { category: 'latent/inpaint', output: ['LATENT'], input: { required: { pixels: ['IMAGE'], vae: ['VAE'], mask: ['MASK'], grow_mask_by: int(6, 0, 64) } } },
    SetLatentNoiseMask: { category: 'latent/inpaint', output: ['LATENT'], input: { required: { samples: ['LATENT'], mask: ['MASK'] } } },
    RepeatLatentBatch: { category: 'latent/batch', output: ['LATENT'], input: { required: { samples: ['LATENT'], amount: int(1, 1, 64) } } },
    KSampler: {
      category: 'sampling', output: ['LATENT'],
      input: { required: { model: ['MODEL'], seed: int(0, 0, U64_MAX), steps: int(20, 1, 10000), ...sampling, denoise: float(1, 0, 1) } },
    },
    KSamplerAdvanced: {
      category: 'sampling', output: ['LATENT'],
      input: { required: {
        model: ['MODEL'], add_noise: [['enable', 'disable']], noise_seed: int(0, 0, U64_MAX), steps: int(20, 1, 10000), ...sampling,
        start_at_step: int(0, 0, 10000), end_at_step: int(10000, 0, 10000), return_with_leftover_noise: [['disable', 'enable']],
      } },
    },
    LoraLoader: {
      category: 'loaders', output: ['MODEL', 'CLIP'],
      input: { required: { model: ['MODEL'], clip: ['CLIP'], lora_name: [models.loras, { tooltip: 'The name of the LoRA.' }], strength_model: float(1, -100, 100), strength_clip: float(1, -100, 100) } },
    },
    VAELoader: { category: 'loaders', output: ['VAE'], input: { required: { vae_name: [[...models.vaes, 'pixel_space']] } } },
    ControlNetLoader: { category: 'loaders', output: ['CONTROL_NET'], input: { required: { control_net_name: [models.controlnets] } } },
    ControlNetApplyAdvanced: {
      category: 'conditioning/controlnet', output: ['CONDITIONING', 'CONDITIONING'],
      input: {
        required: {
          positive: ['CONDITIONING'], negative: ['CONDITIONING'], control_net: ['CONTROL_NET'], image: ['IMAGE'],
          strength: float(1, 0, 10), start_percent: float(0, 0, 1), end_percent: float(1, 0, 1),
        },
        optional: { vae: ['VAE'] },
      },
    },
    Canny: { category: 'image/preprocessors', output: ['IMAGE'], input: { required: { image: ['IMAGE'], low_threshold: float(0.4, 0.01, 0.99), high_threshold: float(0.8, 0.01, 0.99) } } },
    VAEDecode: { category: 'latent', output: ['IMAGE'], input: { required: { samples: ['LATENT'], vae: ['VAE'] } } },
    SaveImage: {
      category: 'image', output: [], outputNode: true,
      input: { required: { images: ['IMAGE'], filename_prefix: ['STRING', { default: 'ComfyUI' }] }, hidden: { prompt: 'PROMPT', extra_pnginfo: 'EXTRA_PNGINFO' } },
    },
    UNETLoader: {
      category: 'advanced/loaders', output: ['MODEL'],
      input: { required: { unet_name: [models.unets], weight_dtype: [['default', 'fp8_e4m3fn', 'fp8_e4m3fn_fast', 'fp8_e5m2']] } },
    },
    DualCLIPLoader: {
      category: 'advanced/loaders', output: ['CLIP'],
      input: {
        required: { clip_name1: [models.textEncoders], clip_name2: [models.textEncoders], type: [['sdxl', 'sd3', 'flux', 'hunyuan_video', 'hidream', 'hunyuan_image', 'hunyuan_video_15', 'kandinsky5', 'kandinsky5_image', 'newbie']] },
        optional: { device: [['default', 'cpu'], { advanced: true }] },
      },
    },
    TripleCLIPLoader: {
      category: 'advanced/loaders', output: ['CLIP'],
      input: { required: { clip_name1: [models.textEncoders], clip_name2: [models.textEncoders], clip_name3: [models.textEncoders] } },
    },
    LoadImageMask: {
      category: 'mask', output: ['MASK'],
      input: { required: { image: [[...models.inputs.keys()].filter((n) => IMAGE_FILE.test(n) && !n.includes('/')).sort(), { image_upload: true }], channel: [['alpha', 'red', 'green', 'blue']] } },
      validate: { inputs: ['image'], check: (v) => (models.inputs.has(String(v.image)) ? true : `Invalid image file: ${String(v.image)}`) },
    },
    EmptySD3LatentImage: { category: 'latent/sd3', output: ['LATENT'], input: { required: { width: ['INT', { default: 1024, min: 16, max: MAX_RESOLUTION, step: 16 }], height: ['INT', { default: 1024, min: 16, max: MAX_RESOLUTION, step: 16 }], batch_size: int(1, 1, 4096) } } },
    FluxGuidance: { category: 'advanced/conditioning/flux', output: ['CONDITIONING'], input: { required: { conditioning: ['CONDITIONING'], guidance: float(3.5, 0, 100) } } },
    ModelSamplingSD3: { category: 'advanced/model', output: ['MODEL'], input: { required: { model: ['MODEL'], shift: float(3, 0, 100) } } },
    ModelSamplingFlux: {
      category: 'advanced/model', output: ['MODEL'],
      input: { required: { model: ['MODEL'], max_shift: float(1.15, 0, 100), base_shift: float(0.5, 0, 100), width: int(1024, 16, MAX_RESOLUTION), height: int(1024, 16, MAX_RESOLUTION) } },
    },
    KSamplerSelect: { category: 'sampling/custom_sampling/samplers', output: ['SAMPLER'], input: { required: { sampler_name: [SAMPLER_NAMES] } } },
    BasicScheduler: {
      category: 'sampling/custom_sampling/schedulers', output: ['SIGMAS'],
      input: { required: { model: ['MODEL'], scheduler: [SCHEDULER_NAMES], steps: int(20, 1, 10000), denoise: float(1, 0, 1) } },
    },
    BasicGuider: { category: 'sampling/custom_sampling/guiders', output: ['GUIDER'], input: { required: { model: ['MODEL'], conditioning: ['CONDITIONING'] } } },
    RandomNoise: { category: 'sampling/custom_sampling/noise', output: ['NOISE'], input: { required: { noise_seed: ['INT', { default: 0, min: 0, max: U64_MAX, control_after_generate: true }] } } },
    SamplerCustomAdvanced: {
      category: 'sampling/custom_sampling', output: ['LATENT', 'LATENT'],
      input: { required: { noise: ['NOISE'], guider: ['GUIDER'], sampler: ['SAMPLER'], sigmas: ['SIGMAS'], latent_image: ['LATENT'] } },
    },
    UpscaleModelLoader: { category: 'loaders', output: ['UPSCALE_MODEL'], input: { required: { model_name: [models.upscalers] } } },
    ImageUpscaleWithModel: { category: 'image/upscaling', output: ['IMAGE'], input: { required: { upscale_model: ['UPSCALE_MODEL'], image: ['IMAGE'] } } },
    PrimitiveStringMultiline: { category: 'utils/primitive', output: ['STRING'], input: { required: { value: ['STRING', { multiline: true }] } } },
    // IO.ANY is '*', an AnyType that equals every type (comfy/comfy_types/node_typing.py).
    PreviewAny: { category: 'utilities', output: ['STRING'], outputNode: true, input: { required: { source: ['*', {}] } } },
    PreviewImage: {
      category: 'image', output: [], outputNode: true,
      input: { required: { images: ['IMAGE'] }, hidden: { prompt: 'PROMPT', extra_pnginfo: 'EXTRA_PNGINFO' } },
    },
  };
}

/** GET /object_info's description of a class (server.py `node_info`). */
export function nodeInfo(name: string, cls: NodeClass) {
  const input = { ...cls.input };
  return {
    input,
    input_order: Object.fromEntries(Object.entries(input).map(([k, v]) => [k, Object.keys(v)])),
    output: cls.output,
    output_is_list: cls.output.map(() => false),
    output_name: cls.output,
    name,
    display_name: name,
    description: '',
    python_module: 'nodes',
    category: cls.category,
    output_node: cls.outputNode === true,
  };
}
