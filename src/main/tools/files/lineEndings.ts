export type LineEnding = '\r\n' | '\n';

/** CRLF when most of the file's line breaks are CRLF (a file with none counts as LF). */
export function dominantLineEnding(text: string): LineEnding {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** Rewrites every line break (CRLF or LF) in `text` as `ending`. */
export function withLineEnding(text: string, ending: LineEnding): string {
  return text.replace(/\r?\n/g, ending);
}
