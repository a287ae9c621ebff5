/**
 * Answers to questions about the image API's own parameters, taken from the service contract so
 * the local engine never contradicts it.
 */
import {
  PREMIUM_SAMPLERS, PUBLIC_CONTROLNETS, REGULAR_SAMPLERS, RESOLUTIONS, STYLE_PRESETS, TOKEN_LIMITS, formatResolution,
} from '../../../../api/catalog';

const sizes = (family: 'sdxl' | 'sd15') => RESOLUTIONS[family].map(formatResolution).join(', ');

export const PARAMETER_ANSWERS: readonly (readonly [RegExp, string])[] = [
  [/\bnegative prompts?\b/i,
    'A negative prompt lists what the image should steer away from, such as "blurry, watermark, extra fingers". It is optional, supports the same weighting syntax as the prompt, and works best as short comma-separated terms.'],
  [/\bcfg(?:_scale| scale)?\b|\bguidance\b/i,
    'cfg_scale sets how strictly the image follows the prompt: higher values keep it closer to the prompt, lower values leave the model more freedom. The default is 12.'],
  [/\bsamplers?\b|\bschedulers?\b/i,
    `The regular samplers are ${REGULAR_SAMPLERS.join(', ')}. The premium samplers, ${PREMIUM_SAMPLERS.join(', ')}, cost twice as much per image. The default is DDIM.`],
  [/\bsteps?\b/i,
    'steps is the number of diffusion steps. More steps give a cleaner, clearer image and take proportionally longer; the default is 30.'],
  [/\bseeds?\b/i,
    'A seed fixes the starting noise, so the same request with the same seed gives the same image. Leave it null and a random seed is used.'],
  [/\bstrength\b|\bimg2img\b|\bimage[- ]to[- ]image\b/i,
    'In image-to-image, strength sets how much noise is applied to the starting image: 0 keeps it unchanged, values near 1 allow large changes and may ignore the input altogether. The default is 0.8.'],
  [/\bstyle[_ ]presets?\b/i,
    `style_preset applies to the SDXL engines only. There are ${STYLE_PRESETS.length} presets, for example cinematic, photographic, anime, Watercolor, fantasy-art and Film Noir, written exactly as listed.`],
  [/\brefiner\b|\bhigh_noise_frac\b/i,
    'On SDXL, use_refiner adds the refiner pass and high_noise_frac sets the split: 0.8, the default, means the base model does 80% of the denoising and the refiner the last 20%.'],
  [/\bcontrol ?net\b/i,
    `ControlNet guides generation with a control image such as edges, depth or a pose. The public checkpoints are ${PUBLIC_CONTROLNETS.join(', ')}; for a public checkpoint the control map is made from your image automatically unless controlnet_preprocess is false.`],
  [/\bweight(?:s|ing|ed)?\b|\bemphasi[sz]e\b|\bparenthes[ie]s\b|\bbrackets?\b/i,
    'Wrap words in parentheses to emphasise them: each level multiplies their weight by 1.1, so ((word)) weighs 1.21, and (word: 1.5) sets the weight directly; weights below 1 tone a word down. Brackets, colons and weight numbers do not count toward the token limit.'],
  [/\btokens?\b|\bprompt length\b|\bhow long (?:can|should) (?:a|the|my) prompt\b/i,
    `Prompts are limited to ${TOKEN_LIMITS.sdxl} tokens on SDXL and ${TOKEN_LIMITS.sd15} on SD 1.5; weighting syntax does not count toward the limit.`],
  [/\bresolutions?\b|\bsizes?\b|\baspect ratios?\b|\bdimensions\b|\bwidth\b|\bheight\b/i,
    `SDXL supports ${sizes('sdxl')}; SD 1.5 supports ${sizes('sd15')}. The defaults are 1024x1024 and 512x512.`],
];
