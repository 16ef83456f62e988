import { memo, useMemo } from 'react';
import { renderTokens } from './codeTokens';
import { CopyButton } from './CopyButton';
import { useHighlighter } from './useHighlighter';

/**
 * A fenced code block of the model's answer: highlighted when it names a language Tether knows
 * (tokens drawn as React elements, never HTML), with a Copy button for its exact text.
 */
export const CodeBlock = memo(function CodeBlock({ code, language }: { code: string; language: string }) {
  const highlighter = useHighlighter(language !== '');
  const tree = useMemo(() => highlighter?.highlightCode(code, language) ?? null, [highlighter, code, language]);
  return (
    <div className="code-frame" data-testid="code-block" data-language={language || undefined} data-highlighted={tree !== null}>
      <div className="code-frame-bar">
        {language && <span className="code-frame-language">{language}</span>}
        <CopyButton text={code} />
      </div>
      <pre>
        <code className={tree ? 'hljs' : undefined}>{tree ? renderTokens(tree.children) : code}</code>
      </pre>
    </div>
  );
});
