/**
 * The value of an ANSI-C quoted string ($'...'), given the text between the quotes, as bash 5
 * computes it. bash keeps C strings, so the value ends at the first NUL it produces. null when the
 * value holds bytes that are not text (\xff, \377, a code point beyond Unicode): bash passes the
 * raw bytes, which a JavaScript string cannot hold, so the value is not known exactly.
 */
export function decodeAnsiC(body: string): string | null {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char !== '\\') {
      out += char;
      continue;
    }
    const next = body[i + 1];
    if (next === undefined) {
      out += '\\';
      break;
    }
    i++;
    let produced: string;
    switch (next) {
      case 'a':
        produced = '\x07';
        break;
      case 'b':
        produced = '\b';
        break;
      case 'e':
      case 'E':
        produced = '\x1b';
        break;
      case 'f':
        produced = '\f';
        break;
      case 'n':
        produced = '\n';
        break;
      case 'r':
        produced = '\r';
        break;
      case 't':
        produced = '\t';
        break;
      case 'v':
        produced = '\v';
        break;
      case '\\':
        produced = '\\';
        break;
      case "'":
        produced = "'";
        break;
      case '"':
        produced = '"';
        break;
      case '?':
        produced = '?';
        break;
      case 'x': {
        const hex = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 1))?.[0];
        if (!hex) {
          produced = '\\x';
          break;
        }
        i += hex.length;
        const byte = parseInt(hex, 16);
        if (byte >= 0x80) return null;
        produced = String.fromCharCode(byte);
        break;
      }
      case 'u':
      case 'U': {
        const digits = /^[0-9a-fA-F]+/.exec(body.slice(i + 1, i + 1 + (next === 'u' ? 4 : 8)))?.[0];
        if (!digits) {
          produced = `\\${next}`;
          break;
        }
        i += digits.length;
        const codePoint = parseInt(digits, 16);
        if (codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return null;
        produced = String.fromCodePoint(codePoint);
        break;
      }
      case 'c': {
        const control = body[i + 1];
        if (control === undefined) {
          produced = '\\c';
          break;
        }
        i++;
        produced = control === '?' ? '\x7f' : String.fromCharCode(control.toUpperCase().charCodeAt(0) & 0x1f);
        break;
      }
      default:
        if (next >= '0' && next <= '7') {
          const octal = /^[0-7]{1,3}/.exec(body.slice(i))![0];
          i += octal.length - 1;
          const byte = parseInt(octal, 8) & 0xff;
          if (byte >= 0x80) return null;
          produced = String.fromCharCode(byte);
          break;
        }
        produced = `\\${next}`;
    }
    const nul = produced.indexOf('\0');
    if (nul >= 0) return out + produced.slice(0, nul);
    out += produced;
  }
  return out;
}
