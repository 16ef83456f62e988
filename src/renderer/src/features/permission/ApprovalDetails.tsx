import type { ApprovalView } from '../../../../shared/session';
import { argsObject, statedReason, stringArg } from '../../lib/toolArgs';
import { CommandParts } from './CommandParts';
import { EditPreview } from './EditPreview';
import { LongText } from './LongText';

/**
 * Exactly what will happen if the person allows it: the whole command (never cut), its parts as
 * the parser found them, the diff of an edit, the content of a write, or the raw arguments.
 */
export function ApprovalDetails({ approval }: { approval: ApprovalView }) {
  const args = argsObject(approval.args);
  const command = stringArg(args, 'command');
  const path = stringArg(args, 'path');
  const oldString = stringArg(args, 'old_string');
  const newString = stringArg(args, 'new_string');
  const content = stringArg(args, 'content');
  const cwd = stringArg(args, 'cwd');
  const reason = statedReason(args);

  return (
    <div className="approval-details">
      {command !== undefined ? (
        <section aria-label="Command">
          <h3>Command{cwd ? <span className="faint"> in {cwd}</span> : null}</h3>
          <pre className="command code-block" data-testid="permission-command">
            {command}
          </pre>
          <CommandParts commands={approval.commands} />
        </section>
      ) : oldString !== undefined && newString !== undefined ? (
        <section aria-label="Edit">
          <h3>
            Edit <span className="mono">{path}</span>
            {args?.replace_all === true ? <span className="faint"> (every occurrence)</span> : null}
          </h3>
          <EditPreview before={oldString} after={newString} />
        </section>
      ) : content !== undefined ? (
        <section aria-label="File content">
          <h3>
            Write <span className="mono">{path}</span>
          </h3>
          <LongText text={content} testId="permission-content" />
        </section>
      ) : (
        <section aria-label="Arguments">
          <h3>Arguments</h3>
          <pre className="code-block wrap" data-testid="permission-args">
            {JSON.stringify(approval.args, null, 2)}
          </pre>
        </section>
      )}
      {reason && (
        <section aria-label="The model's reason" className="approval-note">
          <h3>The model says</h3>
          <p data-testid="permission-model-reason">{reason}</p>
        </section>
      )}
      {approval.reason && (
        <section aria-label="Why this asks" className="approval-note">
          <h3>Why it asks</h3>
          <p data-testid="permission-reason">{approval.reason}</p>
        </section>
      )}
      {approval.taint && (
        <section aria-label="Outside content" className="approval-note taint">
          <h3>Outside content</h3>
          <p data-testid="permission-taint">This session has read content from outside the project: {approval.taint}</p>
        </section>
      )}
    </div>
  );
}
