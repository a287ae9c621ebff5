/**
 * Which custom-node pack usually provides a class that a ComfyUI lacks, for the message that
 * names it. A small table of the packs people most often meet in shared workflows (class names
 * as the packs register them in NODE_CLASS_MAPPINGS); a class not listed gets no guess.
 */
const PACKS: ReadonlyMap<string, string> = new Map([
  ...['FaceDetailer', 'FaceDetailerPipe', 'DetailerForEach', 'SAMLoader', 'ImpactWildcardProcessor', 'ImpactWildcardEncode', 'BboxDetectorSEGS', 'SegmDetectorSEGS', 'ToBasicPipe', 'FromBasicPipe']
    .map((c): [string, string] => [c, 'ComfyUI-Impact-Pack']),
  ...['UltralyticsDetectorProvider'].map((c): [string, string] => [c, 'ComfyUI-Impact-Subpack']),
  ...['IPAdapterUnifiedLoader', 'IPAdapterAdvanced', 'IPAdapter', 'IPAdapterModelLoader', 'IPAdapterFaceID']
    .map((c): [string, string] => [c, 'ComfyUI_IPAdapter_plus']),
  ...['ShowText|pysssss', 'StringFunction|pysssss', 'CheckpointLoader|pysssss', 'LoraLoader|pysssss']
    .map((c): [string, string] => [c, 'ComfyUI-Custom-Scripts (pysssss)']),
  ...['CR Prompt Text', 'CR Apply LoRA Stack', 'CR LoRA Stack', 'CR SDXL Aspect Ratio']
    .map((c): [string, string] => [c, 'ComfyUI_Comfyroll_CustomNodes']),
  ...['Efficient Loader', 'KSampler (Efficient)', 'KSampler Adv. (Efficient)']
    .map((c): [string, string] => [c, 'efficiency-nodes-comfyui']),
  ...['CannyEdgePreprocessor', 'DWPreprocessor', 'OpenposePreprocessor', 'DepthAnythingPreprocessor', 'LineArtPreprocessor', 'AIO_Preprocessor']
    .map((c): [string, string] => [c, 'comfyui_controlnet_aux']),
  ...['VHS_LoadVideo', 'VHS_VideoCombine', 'VHS_LoadImages'].map((c): [string, string] => [c, 'ComfyUI-VideoHelperSuite']),
  ...['UltimateSDUpscale', 'UltimateSDUpscaleNoUpscale'].map((c): [string, string] => [c, 'ComfyUI_UltimateSDUpscale']),
  ...['SDXLPromptStyler', 'SDXLPromptStylerAdvanced'].map((c): [string, string] => [c, 'sdxl_prompt_styler']),
  ...['InstantIDModelLoader', 'ApplyInstantID', 'InstantIDFaceAnalysis'].map((c): [string, string] => [c, 'ComfyUI_InstantID']),
  ...['easy fullLoader', 'easy kSampler', 'easy positive', 'easy negative'].map((c): [string, string] => [c, 'ComfyUI-Easy-Use']),
  ...['Image Save', 'Text Multiline', 'Image Resize'].map((c): [string, string] => [c, 'was-node-suite-comfyui']),
  ...['ReActorFaceSwap'].map((c): [string, string] => [c, 'comfyui-reactor-node']),
  ...['RMBG', 'BiRefNetRMBG'].map((c): [string, string] => [c, 'ComfyUI-RMBG']),
]);

/** The pack that usually provides `classType`, when the table knows it. */
export function packHint(classType: string): string | undefined {
  return PACKS.get(classType);
}
