/**
 * What a sed script does beyond printing: 'reads' (prints, substitutes, deletes: output only; r and R
 * pull in the files listed in `reads`), 'writes' (w, W or s///w write files), 'runs' (e or s///e run
 * commands), or 'unknown' when this parser is not sure how GNU sed reads it. The script is parsed
 * the way GNU sed parses it, so a `w` inside a regular expression or a label is not a write.
 */
export type SedEffect = 'reads' | 'writes' | 'runs' | 'unknown';

export interface SedScript {
  effect: SedEffect;
  /** The files its r and R commands read, as written (GNU sed: the name runs to the end of the line). */
  reads: string[];
}

export function sedScriptEffect(script: string): SedScript {
  const scanner = new SedScanner(script);
  try {
    return { effect: scanner.effect(), reads: scanner.reads };
  } catch {
    return { effect: 'unknown', reads: [] };
  }
}

class Unsure extends Error {}

const NO_ARGUMENT_COMMANDS = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F']);
const OPTIONAL_NUMBER_COMMANDS = new Set(['q', 'Q', 'l', 'L']);
const LABEL_COMMANDS = new Set(['b', 't', 'T']);
const TEXT_COMMANDS = new Set(['a', 'i', 'c']);

class SedScanner {
  private position = 0;
  private depth = 0;
  private writes = false;
  readonly reads: string[] = [];

  constructor(private readonly text: string) {}

  effect(): SedEffect {
    for (;;) {
      this.skip(' \t\n;');
      if (this.atEnd()) {
        if (this.depth !== 0) return 'unknown';
        return this.writes ? 'writes' : 'reads';
      }
      if (this.peek() === '#') {
        this.skipLine();
        continue;
      }
      if (this.peek() === '}') {
        this.position++;
        this.depth--;
        if (this.depth < 0) throw new Unsure();
        continue;
      }
      this.address();
      this.skip(' \t');
      while (this.peek() === '!') {
        this.position++;
        this.skip(' \t');
      }
      if (this.command() === 'runs') return 'runs';
    }
  }

  /** Reads an optional address or address range. */
  private address(): void {
    if (!this.addressPart(true)) return;
    this.skip(' \t');
    if (this.peek() !== ',') return;
    this.position++;
    this.skip(' \t');
    const char = this.peek();
    if (char === '+' || char === '~') {
      this.position++;
      this.number(true);
      return;
    }
    if (!this.addressPart(false)) throw new Unsure();
  }

  private addressPart(first: boolean): boolean {
    const char = this.peek();
    if (char === undefined) return false;
    if (/[0-9]/.test(char)) {
      this.number(true);
      if (first && this.peek() === '~') {
        this.position++;
        this.number(true);
      }
      return true;
    }
    if (char === '$') {
      this.position++;
      return true;
    }
    if (char === '/' || char === '\\') {
      if (char === '\\') this.position++;
      const delimiter = this.next();
      if (delimiter === '\n' || delimiter === '\\') throw new Unsure();
      this.delimited(delimiter, true);
      while (this.peek() === 'I' || this.peek() === 'M') this.position++;
      return true;
    }
    return false;
  }

  /** Reads one command; 'runs' stops the scan, writes are remembered; throws when unsure. */
  private command(): 'runs' | 'ok' {
    const name = this.next();
    if (name === '{') {
      this.depth++;
      return 'ok';
    }
    if (name === 'e') return 'runs';
    if (name === 'w' || name === 'W' || name === 'r' || name === 'R') {
      // The file name runs to the end of the line, after the blanks before it.
      this.skip(' \t');
      const start = this.position;
      this.skipLine();
      // GNU sed refuses a command with no file name.
      if (this.position === start) throw new Unsure();
      if (name === 'w' || name === 'W') this.writes = true;
      else this.reads.push(this.text.slice(start, this.position));
      return 'ok';
    }
    if (NO_ARGUMENT_COMMANDS.has(name)) return this.endOfCommand();
    if (OPTIONAL_NUMBER_COMMANDS.has(name)) {
      this.skip(' \t');
      this.number(false);
      return this.endOfCommand();
    }
    if (LABEL_COMMANDS.has(name) || name === ':' || name === 'v') {
      // GNU sed ends a label at whitespace or a semicolon, and reads a command right after it.
      this.skip(' \t');
      while (!this.atEnd() && !' \t\n;'.includes(this.peek()!)) this.position++;
      return 'ok';
    }
    if (TEXT_COMMANDS.has(name)) {
      // The text runs to the end of the line; a trailing backslash carries it to the next one.
      while (!this.atEnd()) {
        const char = this.next();
        if (char === '\\') this.position++;
        else if (char === '\n') break;
      }
      return 'ok';
    }
    if (name === 's') return this.substitute();
    if (name === 'y') {
      const delimiter = this.next();
      if (delimiter === '\n' || delimiter === '\\') throw new Unsure();
      this.delimited(delimiter, false);
      this.delimited(delimiter, false);
      return this.endOfCommand();
    }
    throw new Unsure();
  }

  private substitute(): 'runs' | 'ok' {
    const delimiter = this.next();
    if (delimiter === '\n' || delimiter === '\\') throw new Unsure();
    this.delimited(delimiter, true);
    this.delimited(delimiter, false);
    for (;;) {
      const flag = this.peek();
      if (flag === undefined) return 'ok';
      if (flag === 'e') return 'runs';
      if (flag === 'w') {
        this.writes = true;
        this.skipLine();
        return 'ok';
      }
      if (flag === 'g' || flag === 'p' || flag === 'i' || flag === 'I' || flag === 'm' || flag === 'M' || /[0-9]/.test(flag)) {
        this.position++;
        continue;
      }
      return this.endOfCommand();
    }
  }

  /**
   * Skips a regular expression or replacement up to the closing delimiter, honouring backslashes;
   * in a regular expression, GNU sed also reads past the delimiter inside a bracket expression.
   */
  private delimited(delimiter: string, regex: boolean): void {
    while (!this.atEnd()) {
      const char = this.next();
      if (char === '\\') {
        if (this.atEnd()) throw new Unsure();
        this.position++;
        continue;
      }
      if (char === delimiter) return;
      if (regex && char === '[') {
        this.bracket();
        continue;
      }
      if (char === '\n') throw new Unsure();
    }
    throw new Unsure();
  }

  /** After `[`: up to the `]` that closes the bracket expression (`[]a]`, `[^]a]`, `[[:alpha:]]`). */
  private bracket(): void {
    if (this.peek() === '^') this.position++;
    if (this.peek() === ']') this.position++;
    while (!this.atEnd()) {
      const char = this.next();
      if (char === '\n') throw new Unsure();
      if (char === ']') return;
      if (char === '[' && (this.peek() === ':' || this.peek() === '=' || this.peek() === '.')) {
        const kind = this.next();
        const close = this.text.indexOf(`${kind}]`, this.position);
        if (close < 0) throw new Unsure();
        this.position = close + 2;
      }
    }
    throw new Unsure();
  }

  private endOfCommand(): 'ok' {
    this.skip(' \t');
    const char = this.peek();
    if (char === undefined || char === ';' || char === '\n' || char === '}' || char === '#') return 'ok';
    throw new Unsure();
  }

  private number(required: boolean): void {
    const start = this.position;
    while (/[0-9]/.test(this.peek() ?? '')) this.position++;
    if (required && this.position === start) throw new Unsure();
  }

  private skip(chars: string): void {
    while (!this.atEnd() && chars.includes(this.peek()!)) this.position++;
  }

  private skipLine(): void {
    while (!this.atEnd() && this.peek() !== '\n') this.position++;
  }

  private peek(): string | undefined {
    return this.text[this.position];
  }

  private next(): string {
    const char = this.text[this.position];
    if (char === undefined) throw new Unsure();
    this.position++;
    return char;
  }

  private atEnd(): boolean {
    return this.position >= this.text.length;
  }
}
