import { useId, type RefObject } from 'react';
import type { EditableField } from './approvalEdit';
import type { DraftJudgement } from './useDraftJudgement';

/** Everything the dialog's details need to offer an edit and show it. */
export interface ArgEdit {
  field: EditableField;
  editing: boolean;
  draft: string;
  /** The draft differs from the model's value (and so would be sent). */
  changed: boolean;
  /** Why the draft cannot be sent as it is. */
  problem?: string;
  /** Main's judgement of the draft, as the answer would judge it (parts, risk, why it asks). */
  preview: DraftJudgement;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  onStart(): void;
  onChange(draft: string): void;
  onReset(): void;
}

const MAX_ROWS = 16;

/** The key that, with Enter, allows: Cmd on a Mac, Ctrl elsewhere (the dialog takes either). */
const modifier = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent) ? '⌘' : 'Ctrl';

/**
 * The argument the person is changing, in full, in a monospace box. Enter adds a line (a command
 * may span several); Ctrl/Cmd+Enter allows, Esc leaves the box: the dialog handles those keys.
 */
export function ArgEditor({ edit }: { edit: ArgEdit }) {
  const hintId = useId();
  const problemId = useId();
  const rows = Math.min(MAX_ROWS, Math.max(2, edit.draft.split('\n').length));
  return (
    <div className="arg-editor">
      <textarea
        ref={edit.inputRef}
        className="mono"
        data-testid="permission-edit-input"
        data-field={edit.field.name}
        data-enter="once"
        aria-label={`Your version of the ${edit.field.label}`}
        aria-describedby={edit.problem ? `${problemId} ${hintId}` : hintId}
        aria-invalid={edit.problem ? true : undefined}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        rows={rows}
        value={edit.draft}
        onChange={(event) => edit.onChange(event.target.value)}
      />
      {edit.problem && (
        <p className="edit-problem" id={problemId} role="alert" data-testid="permission-edit-problem">
          {edit.problem}
        </p>
      )}
      <div className="edit-footer">
        <span className="faint" id={hintId}>
          Enter adds a line · <kbd>{modifier}</kbd>+<kbd>Enter</kbd> allows your version once · <kbd>Esc</kbd> leaves the box
        </span>
        <span className="spacer" />
        <button type="button" className="ghost" data-testid="permission-edit-reset" onClick={edit.onReset}>
          {edit.changed ? 'Undo my changes' : 'Stop editing'}
        </button>
      </div>
    </div>
  );
}
