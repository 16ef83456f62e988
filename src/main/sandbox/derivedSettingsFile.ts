import fs from 'node:fs';
import path from 'node:path';

/**
 * What the derived copies of a person's settings files (derivedNpmrc.ts, derivedPipConf.ts) share: the
 * source read only when it is a file, and the copy written where only the fence reads it, ending with
 * how many lines were left out and why. Counted, not named: a key can carry text as well as a value can.
 */
export class DerivedSettings {
  private readonly lines: string[];
  private readonly leftOut = new Map<string, number>();

  constructor(header: string) {
    this.lines = [`# ${header}`];
  }

  keep(line: string): void {
    this.lines.push(line);
  }

  leaveOut(why: string): void {
    this.leftOut.set(why, (this.leftOut.get(why) ?? 0) + 1);
  }

  /** Writes the copy as `name` in `folder` (the fence's to read, no command's to write); returns its path. */
  write(folder: string, name: string): string {
    const counts = [...this.leftOut].map(([why, count]) => `# ${count} ${count === 1 ? 'line' : 'lines'} left out: ${why}`);
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const file = path.join(folder, name);
    fs.writeFileSync(file, `${[...this.lines, ...counts].join('\n')}\n`, { mode: 0o600 });
    return file;
  }
}

/** The text of a settings file, or undefined when there is none (or it is not a file). */
export function readSettingsFile(file: string): string | undefined {
  try {
    return fs.statSync(file).isFile() ? fs.readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}
