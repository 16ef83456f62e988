import { useState } from 'react';

const CONTENT_PREVIEW_CHARS = 20_000;

/** Text shown in full on request: the head first, so a huge file does not stall the dialog. */
export function LongText({ text, testId }: { text: string; testId: string }) {
  const [all, setAll] = useState(false);
  const cut = text.length > CONTENT_PREVIEW_CHARS;
  return (
    <>
      <pre className="code-block wrap" data-testid={testId}>
        {all || !cut ? text : text.slice(0, CONTENT_PREVIEW_CHARS)}
      </pre>
      {cut && (
        <button type="button" className="ghost show-all" onClick={() => setAll(!all)}>
          {all ? 'Show less' : `Show all (${text.length.toLocaleString()} characters)`}
        </button>
      )}
    </>
  );
}
