import { memo, useMemo } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './CodeBlock';
import { FilePathLink } from './FilePathLink';
import { FILE_PATH_ATTRIBUTE, remarkFilePaths } from './remarkFilePaths';
import { markdownBlocks } from './markdownBlocks';
import { fencedCode } from './markdownCode';
import './markdown.css';

const plugins = [remarkGfm, remarkFilePaths];

// Links leave the app in a new window (Electron's main process decides what may open). A fenced
// block is drawn from its text (highlighted, with Copy); inline code that names a workspace file,
// and a path to one in the prose (marked by remarkFilePaths), link to that file.
const components: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noreferrer noopener" />,
  pre: ({ node }) => <CodeBlock {...fencedCode(node)} />,
  code: ({ node: _node, children, ...props }) =>
    typeof children === 'string' ? (
      <FilePathLink text={children}>
        <code {...props}>{children}</code>
      </FilePathLink>
    ) : (
      <code {...props}>{children}</code>
    ),
  span: ({ node: _node, children, ...props }) => {
    const path = (props as Record<string, unknown>)[FILE_PATH_ATTRIBUTE];
    return typeof path === 'string' ? <FilePathLink text={path}>{children}</FilePathLink> : <span {...props}>{children}</span>;
  },
};

/**
 * The model's text as markdown. Raw HTML is skipped, never rendered: the text may quote a web page
 * or a file, and it must not become markup in the window.
 *
 * `streaming` is for text that grows every frame: it is drawn block by block, and a block already
 * drawn is not parsed again, so a frame costs the last paragraph rather than the whole answer.
 */
export const Markdown = memo(function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  return <div className="markdown">{streaming ? <MarkdownBlocks text={text} /> : <MarkdownPart text={text} />}</div>;
});

function MarkdownBlocks({ text }: { text: string }) {
  const blocks = useMemo(() => markdownBlocks(text), [text]);
  // Blocks only ever grow at the end, so a block's index is its identity.
  return blocks.map((block, index) => <MarkdownPart key={index} text={block} />);
}

const MarkdownPart = memo(function MarkdownPart({ text }: { text: string }) {
  return (
    <ReactMarkdown remarkPlugins={plugins} skipHtml components={components}>
      {text}
    </ReactMarkdown>
  );
});
