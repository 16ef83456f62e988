import { describe, expect, it } from 'vitest';
import { BINARY_SNIFF_BYTES } from '../workspace/looksBinary';
import { exactText } from './exactText';

describe('exactText', () => {
  it('gives UTF-8 text back exactly, a byte order mark included', () => {
    expect(exactText(Buffer.from('café\n'))).toEqual({ text: 'café\n' });
    expect(exactText(Buffer.from('\ufeffx\n'))).toEqual({ text: '\ufeffx\n' });
  });

  it('calls valid UTF-8 with a NUL where git looks binary, and one past that window text', () => {
    expect(exactText(Buffer.from('a\0b\n'))).toEqual({ notText: 'binary' });
    const late = Buffer.concat([Buffer.alloc(BINARY_SNIFF_BYTES, 0x61), Buffer.from('\0')]);
    expect(exactText(late)).toEqual({ text: late.toString('utf8') });
  });

  it('refuses bytes that are not UTF-8 or would not encode back the same', () => {
    expect(exactText(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]))).toEqual({ notText: 'not exact UTF-8' });
    // An overlong encoding of '/': a lenient decoder would turn it into text that writes back differently.
    expect(exactText(Buffer.from([0xc0, 0xaf]))).toEqual({ notText: 'not exact UTF-8' });
  });
});
