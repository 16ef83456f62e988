import { useContext, type ReactNode } from 'react';
import { StoreContext, useApp } from '../../stores/useApp';
import { workspaceFile } from '../../lib/workspacePath';
import './fileLinks.css';

interface FilePathLinkProps {
  /** The text as the model or the tool wrote it: a relative path, or an absolute one inside the workspace. */
  text: string;
  /** The session whose diff opens; the selected one (whose conversation is shown) when absent. */
  sessionId?: string;
  /** What shows; the text itself when absent. */
  children?: ReactNode;
  className?: string;
}

/**
 * A file path the model or a tool named, as a link to that file: its changes when the session
 * changed it, else the file read-only, at the line the text names (`src/a.ts:12:5`, `#L12`). Text
 * that does not name a file inside the session's workspace stays plain. Nothing is opened or run
 * here: the click asks main for the file, and main checks the path again (the path guard and the
 * read rules read_file meets), so text the model wrote can show nothing read_file could not.
 */
export function FilePathLink(props: FilePathLinkProps) {
  // Markdown is also drawn outside the app's store (tests, a static render): there, paths stay text.
  if (!useContext(StoreContext)) return <>{props.children ?? props.text}</>;
  return <LinkedPath {...props} />;
}

function LinkedPath({ text, sessionId, children, className }: FilePathLinkProps) {
  const selected = useApp((state) => state.selectedSessionId);
  const session = sessionId ?? selected ?? undefined;
  const workspace = useApp((state) => (session ? (state.sessions[session]?.workspace ?? state.logs[session]?.state.workspace) : undefined));
  const openWorkspaceFile = useApp((state) => state.openWorkspaceFile);
  const file = session && workspace ? workspaceFile(text, workspace) : null;
  if (!session || !file) return <>{children ?? text}</>;
  const at = file.line !== undefined ? ` at line ${file.line}${file.column !== undefined ? `, column ${file.column}` : ''}` : '';
  return (
    <button
      type="button"
      className={`file-link${className ? ` ${className}` : ''}`}
      data-testid="file-link"
      data-path={file.path}
      data-line={file.line}
      title={`Open ${file.path}${at}`}
      onClick={() => void openWorkspaceFile(session, file)}
    >
      {children ?? text}
    </button>
  );
}
