import { describe, expect, it } from 'vitest';
import { extensionFor, imageFileName, slug } from '../../src/results/file-names';

describe('downloaded image names', () => {
  it('name the workflow, the node, the position among several and the seed', () => {
    expect(imageFileName({ workflowTitle: 'Sunset over the lake', nodeLabel: 'Text to image', index: 1, count: 4, seed: 1234, mime: 'image/jpeg' }))
      .toBe('sunset-over-the-lake-text-to-image-2-seed-1234.jpg');
    expect(imageFileName({ workflowTitle: '', nodeLabel: 'Inpaint', index: 0, count: 1, mime: 'image/png' })).toBe('inpaint.png');
  });

  it("keep Preview's own name as written, without anything a file system refuses", () => {
    expect(imageFileName({ workflowTitle: 'x', nodeLabel: 'y', filename: 'hero_shot v2', count: 1, seed: 7, mime: 'image/webp' }))
      .toBe('hero_shot v2-seed-7.webp');
    expect(imageFileName({ workflowTitle: 'x', nodeLabel: 'y', filename: '../../etc/passwd', count: 1, mime: 'image/jpeg' }))
      .toBe('etc-passwd.jpg');
  });

  it('never let path separators, control characters or reserved names through', () => {
    expect(slug('a/b\\c:d*e?f"g<h>i|j\u0000k')).toBe('a-b-c-d-e-f-g-h-i-j-k');
    expect(imageFileName({ workflowTitle: '///', nodeLabel: '...', count: 1, mime: 'image/jpeg' })).toBe('atelier-image.jpg');
  });

  it('map image types to their usual extensions', () => {
    expect(extensionFor('image/jpeg')).toBe('jpg');
    expect(extensionFor('IMAGE/PNG')).toBe('png');
    expect(extensionFor('application/octet-stream')).toBe('bin');
  });
});
