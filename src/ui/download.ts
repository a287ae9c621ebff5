/** Starts the browser's download of `blob` as `fileName` (a workflow file, an image). */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once started; a moment later the URL can go.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
