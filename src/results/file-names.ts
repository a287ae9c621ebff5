/** Names for downloaded images: what made them and with which seed, safe on every file system. */

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
};

export function extensionFor(mime: string): string {
  return EXTENSIONS[mime.toLowerCase()] ?? (/^image\/([a-z0-9]+)$/i.exec(mime)?.[1]?.toLowerCase() ?? 'bin');
}

/** Lower-case words joined by dashes: no path separators, control or reserved characters. */
export function slug(text: string, max = 48): string {
  const words = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return words.slice(0, max).replace(/-+$/, '');
}

export interface ImageFileParts {
  workflowTitle: string;
  nodeLabel: string;
  /** Preview's own file name; when set it replaces the workflow and node names. */
  filename?: string;
  /** Position among the node's images (0-based) when it made several. */
  index?: number;
  count: number;
  seed?: number;
  mime: string;
}

/** A name the user chose, kept as written but for characters a file system may refuse. */
function safeName(text: string): string {
  return text.normalize('NFKC').replace(/[^\p{L}\p{N}_\- .]+/gu, '-').replace(/^[\s.-]+|[\s.]+$/g, '').slice(0, 100);
}

/** e.g. `sunset-lake-text-to-image-2-seed-1234.jpg`. */
export function imageFileName(p: ImageFileParts): string {
  const own = p.filename === undefined ? '' : safeName(p.filename);
  const base = own || [slug(p.workflowTitle), slug(p.nodeLabel)].filter((s) => s !== '').join('-') || 'atelier-image';
  const parts = [base];
  if (p.count > 1 && p.index !== undefined) parts.push(String(p.index + 1));
  if (p.seed !== undefined) parts.push(`seed-${p.seed}`);
  return `${parts.join('-')}.${extensionFor(p.mime)}`;
}
