/** The last lines a server printed on stderr: what a person needs to see why it failed, and no more. */
export class StderrTail {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(
    private readonly maxLines = 40,
    private readonly maxLineLength = 500,
  ) {}

  push(chunk: string): void {
    const pieces = (this.partial + chunk).split(/\r?\n/);
    this.partial = pieces.pop() ?? '';
    if (this.partial.length > this.maxLineLength) {
      this.add(this.partial);
      this.partial = '';
    }
    for (const line of pieces) this.add(line);
  }

  /** The lines so far, the unfinished one included. */
  tail(): string[] {
    return (this.partial === '' ? this.lines : [...this.lines, this.partial]).slice(-this.maxLines);
  }

  /** For an error message: what it printed, or that it printed nothing. */
  block(lines = 12): string {
    const shown = this.tail().slice(-lines);
    if (shown.length === 0) return ' It printed nothing on stderr.';
    return `\nIt printed on stderr:\n${shown.map((line) => `  ${line}`).join('\n')}`;
  }

  private add(line: string): void {
    if (line.trim() === '' && this.lines.length === 0) return;
    this.lines.push(line.length > this.maxLineLength ? `${line.slice(0, this.maxLineLength)}…` : line);
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines);
  }
}
