/** Whether a file is an image Atelier takes: what the drop and paste handlers ask before reading it (image-file.ts). */

export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/gif';

export function isImageFile(file: File): boolean {
  return file.type.startsWith('image/') || /\.(jpe?g|png|webp|gif)$/i.test(file.name);
}
