/**
 * Keeps the first and the last `keep` characters, so a command that prints gigabytes cannot
 * exhaust memory while the start (the command's first errors) and the end (its verdict) survive.
 */
/** How much of a command's output is kept from its start, and again from its end. */
export const DEFAULT_KEEP_CHARS = 1_000_000;

export class CappedText {
  private head = '';
  private tail: string[] = [];
  private tailLength = 0;
  private cut = 0;

  constructor(private readonly keep: number) {}

  push(text: string): void {
    if (this.head.length < this.keep) {
      const room = this.keep - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
      if (!text) return;
    }
    this.tail.push(text);
    this.tailLength += text.length;
    if (this.tailLength > 2 * this.keep) this.trimTail();
  }

  toString(): string {
    this.trimTail();
    const tail = this.tail.join('');
    if (this.cut === 0) return this.head + tail;
    return `${this.head}\n\n[… ${this.cut} characters of output cut …]\n\n${tail}`;
  }

  private trimTail(): void {
    if (this.tailLength <= this.keep) return;
    const joined = this.tail.join('');
    const excess = joined.length - this.keep;
    this.cut += excess;
    this.tail = [joined.slice(excess)];
    this.tailLength = this.keep;
  }
}
