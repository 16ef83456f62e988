import { useRef, type KeyboardEvent } from 'react';
import type { FileChange } from '../../../../shared/contract';
import { useApp } from '../../stores/useApp';

const letters: Record<FileChange['status'], string> = { added: 'A', modified: 'M', deleted: 'D' };
const none: FileChange[] = [];

/** The changed files with their line counts; Up and Down move through them. */
export function DiffFileList({ sessionId }: { sessionId: string }) {
  const files = useApp((state) => state.diffs[sessionId]?.files ?? none);
  const selected = useApp((state) => state.diffPath[sessionId]);
  const selectDiffFile = useApp((state) => state.selectDiffFile);
  const list = useRef<HTMLUListElement>(null);

  if (files.length === 0) return null;

  function handleKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const index = files.findIndex((file) => file.path === selected);
    const next = files[Math.min(files.length - 1, Math.max(0, index + (event.key === 'ArrowDown' ? 1 : -1)))];
    if (!next) return;
    void selectDiffFile(sessionId, next.path);
    list.current?.querySelector<HTMLButtonElement>(`[data-path="${CSS.escape(next.path)}"] button`)?.focus();
  }

  return (
    <ul className="diff-file-list" data-testid="diff-file-list" aria-label="Changed files" ref={list} onKeyDown={handleKeyDown}>
      {files.map((file) => {
        const slash = file.path.lastIndexOf('/');
        const isSelected = file.path === selected;
        return (
          <li
            key={file.path}
            data-testid="diff-file"
            data-path={file.path}
            data-status={file.status}
            className={isSelected ? 'selected' : undefined}
          >
            <button
              type="button"
              aria-current={isSelected ? 'true' : undefined}
              title={file.path}
              onClick={() => void selectDiffFile(sessionId, file.path)}
            >
              <span className={`file-status file-${file.status}`} aria-label={file.status}>
                {letters[file.status]}
              </span>
              <span className="file-name">{file.path.slice(slash + 1)}</span>
              <span className="file-dir faint">{slash > 0 ? file.path.slice(0, slash) : ''}</span>
              {file.binary ? (
                <span className="faint">binary</span>
              ) : (
                <span className="file-counts mono">
                  <span className="added" data-testid="diff-additions">
                    +{file.additions}
                  </span>{' '}
                  <span className="removed" data-testid="diff-deletions">
                    −{file.deletions}
                  </span>
                </span>
              )}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
