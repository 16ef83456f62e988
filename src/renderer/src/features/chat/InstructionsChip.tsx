import type { InstructionsState } from '../../../../shared/conversationState';
import { plural } from '../../lib/format';
import './context.css';

/**
 * Which instruction files (AGENTS.md, CLAUDE.md) the model was given, with their sizes, and any
 * warning about them (a file over the cap). Hidden until the session has looked for them.
 */
export function InstructionsChip({ instructions }: { instructions: InstructionsState }) {
  const files = [
    ...(instructions.system ?? []).map((file) => ({ ...file, where: 'system prompt' })),
    ...instructions.notes.flatMap((note) => note.files.map((file) => ({ ...file, where: 'found while working' }))),
  ];
  const { warnings } = instructions;
  if (instructions.system === null && files.length === 0 && warnings.length === 0) return null;
  const label =
    files.length === 0 ? 'no instruction files' : files.length === 1 ? files[0]!.path : `${files[0]!.path} +${files.length - 1}`;
  return (
    <details className="instructions-chip" data-testid="instructions-chip">
      <summary
        className={`badge instructions${warnings.length > 0 ? ' warn' : ''}${files.length === 0 ? ' none' : ''}`}
        title="Instruction files (AGENTS.md, CLAUDE.md) given to the model"
      >
        {warnings.length > 0 && <span aria-label="with warnings">⚠ </span>}
        {label}
      </summary>
      <div className="popover" role="note">
        <p>
          {files.length === 0
            ? 'No AGENTS.md or CLAUDE.md in the workspace root. Files in the folders the agent works in are added when it gets there.'
            : `${plural(files.length, 'instruction file')} given to the model, in the order they were found:`}
        </p>
        {files.length > 0 && (
          <ul data-testid="instructions-files">
            {files.map((file) => (
              <li key={file.path}>
                <span className="mono">{file.path}</span>{' '}
                <span className="faint">
                  {file.chars.toLocaleString('en-US')} chars · {file.where}
                  {file.truncated ? ' · capped' : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
        {warnings.length > 0 && (
          <ul className="instructions-warnings" data-testid="instructions-warnings">
            {warnings.map((warning, index) => (
              <li key={index}>{warning}</li>
            ))}
          </ul>
        )}
      </div>
    </details>
  );
}
