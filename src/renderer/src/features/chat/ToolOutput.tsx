import { useMemo, useState } from 'react';

const MAX_LINES = 200;
const MAX_CHARS = 20_000;

/**
 * A tool's output. Long outputs are capped to their head until "Show all" is pressed, so a 5 MB
 * build log does not stall the conversation.
 */
export function ToolOutput({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  const { head, lines, cut } = useMemo(() => capped(text), [text]);
  if (!text) return <p className="faint tool-note">(no output)</p>;
  return (
    <div className="tool-output" data-testid="tool-card-output">
      <pre className="code-block">{all || !cut ? text : head}</pre>
      {cut && (
        <button type="button" className="ghost show-all" data-testid="tool-output-show-all" onClick={() => setAll(!all)}>
          {all ? 'Show less' : `Show all (${lines.toLocaleString()} lines, ${text.length.toLocaleString()} characters)`}
        </button>
      )}
    </div>
  );
}

function capped(text: string): { head: string; lines: number; cut: boolean } {
  let lines = 1;
  let headEnd = -1;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== 10) continue;
    lines++;
    if (lines === MAX_LINES + 1 && headEnd === -1) headEnd = i;
  }
  let end = headEnd === -1 ? text.length : headEnd;
  if (end > MAX_CHARS) end = MAX_CHARS;
  return { head: text.slice(0, end), lines, cut: end < text.length };
}
