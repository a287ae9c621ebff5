import { describe, expect, it } from 'vitest';
import type { PortSpec } from '../../nodes/types';
import {
  ValueConversionError, base64ByteSize, canConvert, coerceToPort, convert, describeValue, imageMime, imageValue,
  imagesOf, imagesValue, mimeExtension, numberValue, portAccepts, splitsList, textOf, textValue, textsOf, textsValue,
} from '../../nodes/values';

const jpeg = { b64: '/9j/4AAQSkZJRg==', mime: 'image/jpeg' };
const png = { b64: 'iVBORw0KGgo=', mime: 'image/png' };

describe('canConvert', () => {
  it('allows the same kind and the listed conversions only', () => {
    expect(canConvert('text', 'text')).toBe(true);
    expect(canConvert('text', 'number')).toBe(true);
    expect(canConvert('number', 'text')).toBe(true);
    expect(canConvert('image', 'images')).toBe(true);
    expect(canConvert('images', 'image')).toBe(true);
    expect(canConvert('text', 'image')).toBe(false);
    expect(canConvert('image', 'text')).toBe(false);
    expect(canConvert('number', 'image')).toBe(false);
    expect(canConvert('images', 'number')).toBe(false);
  });
});

describe('convert', () => {
  it('parses numbers from text, trimming spaces', () => {
    expect(convert(textValue(' 42 '), 'number')).toEqual(numberValue(42));
    expect(convert(textValue('-1.5e3'), 'number')).toEqual(numberValue(-1500));
  });

  it('refuses text that is not a number, quoting it', () => {
    expect(() => convert(textValue('forty'), 'number')).toThrow(ValueConversionError);
    expect(() => convert(textValue('forty'), 'number')).toThrow('cannot convert text to number: "forty" is not a number');
    expect(() => convert(textValue('   '), 'number')).toThrow('is not a number');
    expect(() => convert(textValue('Infinity'), 'number')).toThrow('is not a number');
  });

  it('writes numbers as text', () => {
    expect(convert(numberValue(7.25), 'text')).toEqual(textValue('7.25'));
  });

  it('wraps an item in a list of one, and turns a list of one into its item', () => {
    expect(convert(imageValue(jpeg), 'images')).toEqual(imagesValue([jpeg]));
    expect(convert(imagesValue([png]), 'image')).toEqual(imageValue(png));
    expect(convert(textValue('a fox'), 'texts')).toEqual(textsValue(['a fox']));
    expect(convert(textsValue(['a fox']), 'text')).toEqual(textValue('a fox'));
  });

  it('refuses to make one value of a longer or empty list: that is a fan-out, not a conversion', () => {
    expect(() => convert(imagesValue([png, jpeg]), 'image')).toThrow('cannot convert images to image: the list holds 2 items, not one');
    expect(() => convert(textsValue(['a', 'b', 'c']), 'text')).toThrow('the list holds 3 items, not one');
    expect(() => convert(imagesValue([]), 'image')).toThrow('the list is empty');
  });

  it('lets lists and items of other kinds alone', () => {
    expect(canConvert('texts', 'images')).toBe(false);
    expect(canConvert('images', 'texts')).toBe(false);
    expect(canConvert('texts', 'number')).toBe(false);
    expect(canConvert('number', 'texts')).toBe(false);
  });

  it('refuses kinds with no conversion, naming both', () => {
    expect(() => convert(textValue('x'), 'image')).toThrow('cannot convert text to image');
  });

  it('returns the same value when the kind already matches', () => {
    const v = textValue('same');
    expect(convert(v, 'text')).toBe(v);
  });
});

describe('ports', () => {
  const imagePort: PortSpec = { name: 'image', kind: 'image', label: 'Image' };
  const anyPort: PortSpec = { name: 'value', kind: 'image', label: 'Value', accepts: ['image', 'images', 'text'] };

  it('accepts convertible kinds, or the listed kinds unchanged', () => {
    expect(portAccepts(imagePort, 'images')).toBe(true);
    expect(portAccepts(imagePort, 'text')).toBe(false);
    expect(portAccepts(anyPort, 'text')).toBe(true);
    expect(coerceToPort(textValue('hi'), anyPort)).toEqual(textValue('hi'));
    expect(coerceToPort(imagesValue([png, jpeg]), anyPort)).toEqual(imagesValue([png, jpeg]));
    expect(coerceToPort(imagesValue([png]), imagePort)).toEqual(imageValue(png));
  });

  it('takes a list item by item where the input takes one value, and whole where it takes the list', () => {
    const seedPort: PortSpec = { name: 'seed', kind: 'number', label: 'Seed' };
    const listPort: PortSpec = { name: 'samples', kind: 'images', label: 'Samples' };
    expect(portAccepts(seedPort, 'texts')).toBe(true);
    expect(portAccepts(seedPort, 'images')).toBe(false);
    expect(splitsList(imagePort, 'images')).toBe(true);
    expect(splitsList(seedPort, 'texts')).toBe(true);
    expect(splitsList(listPort, 'images')).toBe(false);
    expect(splitsList(anyPort, 'images')).toBe(false);
    expect(splitsList(imagePort, 'image')).toBe(false);
    // A list of one reaching a number input: its item, read as a number.
    expect(coerceToPort(textsValue([' 42 ']), seedPort)).toEqual(numberValue(42));
  });

  it('reads text and images out of optional values', () => {
    expect(textOf(undefined)).toBe('');
    expect(textOf(numberValue(1))).toBe('');
    expect(textOf(textValue('a'))).toBe('a');
    expect(imagesOf(imageValue(jpeg))).toEqual([jpeg]);
    expect(imagesOf(imagesValue([jpeg, png]))).toEqual([jpeg, png]);
    expect(imagesOf(undefined)).toEqual([]);
    expect(textsOf(textValue('a'))).toEqual(['a']);
    expect(textsOf(textsValue(['a', 'b']))).toEqual(['a', 'b']);
    expect(textsOf(imageValue(jpeg))).toEqual([]);
  });
});

describe('imageMime', () => {
  it('reads JPEG, PNG, WebP and GIF from the base64 magic bytes', () => {
    expect(imageMime(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]).toString('base64'))).toBe('image/jpeg');
    expect(imageMime(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64'))).toBe('image/png');
    expect(imageMime(Buffer.from('RIFF\0\0\0\0WEBPVP8 ').toString('base64'))).toBe('image/webp');
    expect(imageMime(Buffer.from('GIF89a').toString('base64'))).toBe('image/gif');
    expect(imageMime(Buffer.from([0xff, 0xd8, 0xff, 0xe0]).toString('base64url'))).toBe('image/jpeg');
  });

  it('says undefined for anything else', () => {
    expect(imageMime(Buffer.from('hello world').toString('base64'))).toBeUndefined();
    expect(imageMime('')).toBeUndefined();
  });

  it('gives a file extension per mime type', () => {
    expect(mimeExtension('image/jpeg')).toBe('jpg');
    expect(mimeExtension('image/png')).toBe('png');
    expect(mimeExtension('application/octet-stream')).toBe('bin');
  });
});

describe('base64ByteSize', () => {
  it('matches the decoded length for every padding case', () => {
    for (let n = 0; n < 20; n++) {
      const b64 = Buffer.alloc(n, 7).toString('base64');
      expect(base64ByteSize(b64)).toBe(n);
      expect(base64ByteSize(b64.replace(/=+$/, ''))).toBe(n);
    }
  });
});

describe('describeValue', () => {
  it('summarises without the base64', () => {
    const b64 = Buffer.alloc(3000, 1).toString('base64');
    const text = describeValue(imageValue({ b64, mime: 'image/png', width: 512, height: 768 }));
    expect(text).toBe('image (512x768, image/png, 3000 bytes)');
    expect(describeValue(imagesValue([jpeg, png]))).toBe('2 images');
    expect(describeValue(textValue('abc'))).toBe('text (3 characters)');
  });
});
