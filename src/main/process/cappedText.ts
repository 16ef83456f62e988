/**
 * Keeps the first and the last `keep` characters, so a command that prints gigabytes cannot
 * exhaust memory while the start (the command's first errors) and the end (its verdict) survive.
 */
/** How much of a command's output is kept from its start, and again from its end. */
export const DEFAULT_KEEP_CHARS = 1_000_000;

export class CappedText {
  private head = '';
  /** The last chunks, oldest first from `start`; together at most `keep` characters plus one chunk. */
  private tail: Array<string | undefined> = [];
  private start = 0;
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
    // Whole chunks leave from the front as soon as the rest still fills the tail: nothing is joined
    // or copied while the output pours (a flood would otherwise churn megabyte strings).
    for (
      let first = this.tail[this.start]!;
      this.tail.length - this.start > 1 && this.tailLength - first.length >= this.keep;
      first = this.tail[this.start]!
    ) {
      this.tail[this.start++] = undefined;
      this.tailLength -= first.length;
      this.cut += first.length;
    }
    if (this.start > 1024) {
      this.tail = this.tail.slice(this.start);
      this.start = 0;
    }
  }

  toString(): string {
    let tail = this.tail.slice(this.start).join('');
    let cut = this.cut;
    if (tail.length > this.keep) {
      cut += tail.length - this.keep;
      tail = tail.slice(tail.length - this.keep);
    }
    if (cut === 0) return this.head + tail;
    return `${this.head}\n\n[… ${cut} characters of output cut …]\n\n${tail}`;
  }
}
