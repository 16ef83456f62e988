import { describe, expect, it } from 'vitest';
import { charsetParameter, decodeText } from './decodeText';

const latin1 = (text: string) => Buffer.from(text, 'latin1');

describe('decodeText', () => {
  it('uses the charset from the Content-Type header', () => {
    expect(decodeText(latin1('caf\xe9'), 'iso-8859-1', 'text')).toEqual({ text: 'café', charset: 'windows-1252' });
    expect(decodeText(Buffer.from([0x82, 0xa0]), 'shift_jis', 'text').text).toBe('あ');
    // Browsers read every latin1 label as windows-1252: 0x80 is the euro sign, 0x93/0x94 curly quotes.
    expect(decodeText(Buffer.from([0x80, 0x20, 0x93, 0x61, 0x94]), 'latin1', 'text').text).toBe('€ “a”');
  });

  it('lets a byte-order mark win over the header', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo', 'utf16le')]);
    expect(decodeText(utf16, 'iso-8859-1', 'text')).toEqual({ text: 'héllo', charset: 'utf-16le' });
    expect(decodeText(Buffer.from('\ufeffhé', 'utf8'), undefined, 'text').text).toBe('hé');
  });

  it('finds the charset of an HTML page in its <meta> tags', () => {
    const page = (meta: string) =>
      Buffer.concat([latin1(`<html><head>${meta}</head><body>`), latin1('\xe9t\xe9'), latin1('</body></html>')]);
    expect(decodeText(page('<meta charset="ISO-8859-1">'), undefined, 'html').text).toContain('été');
    expect(
      decodeText(page('<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">'), undefined, 'html').text,
    ).toContain('été');
  });

  it('finds the encoding of an XML document in its declaration', () => {
    const xml = Buffer.concat([latin1('<?xml version="1.0" encoding="ISO-8859-1"?><a>'), latin1('\xe9'), latin1('</a>')]);
    expect(decodeText(xml, undefined, 'xml').text).toBe('<?xml version="1.0" encoding="ISO-8859-1"?><a>é</a>');
  });

  it('reads undeclared bytes as UTF-8 when they are valid UTF-8, else as windows-1252', () => {
    expect(decodeText(Buffer.from('naïve €', 'utf8'), undefined, 'text')).toEqual({ text: 'naïve €', charset: 'utf-8' });
    expect(decodeText(Buffer.from([0x6e, 0x61, 0xef, 0x76, 0x65, 0x20, 0x80]), undefined, 'text')).toEqual({
      text: 'naïve €',
      charset: 'windows-1252',
    });
  });

  it('reads JSON as UTF-8 without looking for declarations, and ignores an unknown charset', () => {
    expect(decodeText(Buffer.from('{"a":"é"}', 'utf8'), undefined, 'json').text).toBe('{"a":"é"}');
    expect(decodeText(Buffer.from('plain é', 'utf8'), 'x-no-such-charset', 'text').text).toBe('plain é');
  });

  it('reads the charset parameter of a Content-Type', () => {
    expect(charsetParameter('text/html; charset=UTF-8')).toBe('UTF-8');
    expect(charsetParameter('text/html;charset="iso-8859-1"; q=1')).toBe('iso-8859-1');
    expect(charsetParameter('text/html')).toBeUndefined();
    expect(charsetParameter(undefined)).toBeUndefined();
  });
});
