/** A PNG with text chunks, as ComfyUI's SaveImage writes them through PIL's PngInfo (tEXt Latin-1, iTXt UTF-8). */
import sharp from 'sharp';
import { crc32 } from '../../workflow/embed/png';

export async function pngWith(chunks: [type: 'tEXt' | 'iTXt', keyword: string, text: string][]): Promise<Uint8Array> {
  const png = new Uint8Array(await sharp({ create: { width: 4, height: 4, channels: 3, background: '#345' } }).png().toBuffer());
  const made = chunks.map(([type, keyword, text]) => {
    const body = type === 'tEXt' ? Buffer.from(`${keyword}\0${text}`, 'latin1') : Buffer.concat([Buffer.from(`${keyword}\0\0\0\0\0`, 'latin1'), Buffer.from(text, 'utf8')]);
    const out = Buffer.alloc(12 + body.length);
    out.writeUInt32BE(body.length, 0);
    out.write(type, 4, 'latin1');
    body.copy(out, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + body.length)), 8 + body.length);
    return out;
  });
  const iend = png.length - 12;
  return new Uint8Array(Buffer.concat([png.subarray(0, iend), ...made, png.subarray(iend)]));
}
