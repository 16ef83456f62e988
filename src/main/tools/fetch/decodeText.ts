import type { ContentKind } from './contentKind';

/** How many leading bytes are searched for a <meta charset> or an XML declaration. */
const PRESCAN_BYTES = 4096;

/**
 * Decodes a body to text with the charset it declares: a byte-order mark first, then the
 * Content-Type charset, then (HTML) a <meta> charset or (XML) the declaration's encoding. Without
 * any, UTF-8 if the bytes are valid UTF-8, else windows-1252, the web's legacy default. JSON is
 * UTF-8 by definition (RFC 8259) unless a BOM or the header says otherwise.
 */
export function decodeText(bytes: Uint8Array, headerCharset: string | undefined, kind: ContentKind): { text: string; charset: string } {
  const declared = bomCharset(bytes) ?? clean(headerCharset) ?? (kind === 'json' ? 'utf-8' : documentCharset(bytes, kind));
  if (declared) {
    const decoder = decoderFor(declared);
    if (decoder) return { text: decoder.decode(bytes), charset: decoder.encoding };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), charset: 'utf-8' };
  } catch {
    return { text: windows1252.decode(bytes), charset: 'windows-1252' };
  }
}

/** The charset parameter of a Content-Type header, if any. */
export function charsetParameter(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType ?? '');
  return match?.[2];
}

function bomCharset(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

function documentCharset(bytes: Uint8Array, kind: ContentKind): string | null {
  if (kind !== 'html' && kind !== 'xml' && kind !== 'unknown') return null;
  // latin1 maps every byte to one character, so the ASCII markup reads the same in any charset.
  const head = Buffer.from(bytes.subarray(0, PRESCAN_BYTES)).toString('latin1');
  const xml = /^\s*<\?xml[^>]*\sencoding\s*=\s*["']([^"']+)["']/i.exec(head);
  if (xml) return clean(xml[1]);
  if (kind === 'xml') return null;
  const meta = /<meta\s[^>]*?charset\s*=\s*["']?\s*([\w.:+-]+)/i.exec(head);
  // A page that was decoded to read its <meta> cannot be UTF-16 (the markup would not be ASCII).
  const label = clean(meta?.[1]);
  return label && /^utf-?16/i.test(label) ? 'utf-8' : label;
}

function clean(label: string | undefined): string | null {
  const trimmed = label?.trim().toLowerCase();
  return trimmed ? trimmed : null;
}

interface Decoder {
  encoding: string;
  decode(bytes: Uint8Array): string;
}

function decoderFor(label: string): Decoder | null {
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label);
  } catch {
    return null; // an unknown charset: fall back to sniffing UTF-8
  }
  return decoder.encoding === 'windows-1252' ? windows1252 : decoder;
}

/**
 * The characters windows-1252 puts at 0x80-0x9F, where latin1 has control codes. Node's TextDecoder
 * decodes every label of windows-1252 (latin1, iso-8859-1, ascii...) as latin1, so curly quotes,
 * dashes and the euro sign would come out as control characters; the WHATWG table is applied here.
 */
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

const windows1252: Decoder = {
  encoding: 'windows-1252',
  decode(bytes) {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    return text.replace(/[\x80-\x9f]/g, (char) => WINDOWS_1252_HIGH[char.charCodeAt(0) - 0x80]!);
  },
};
