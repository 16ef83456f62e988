import type { ReactNode } from 'react';
import type { ApprovalView } from '../../../../shared/session';
import { argsObject, statedReason, stringArg } from '../../lib/toolArgs';
import { ArgEditor, type ArgEdit } from './ArgEditor';
import { CommandParts } from './CommandParts';
import { EditPreview } from './EditPreview';
import { LongText } from './LongText';
import { WhyItAsks } from './WhyItAsks';
import { KeyHint } from '../../ui/KeyHint';

/**
 * Exactly what will happen if the person allows it: the whole command (never cut), its parts as
 * the parser found them with what each does, the diff of an edit or a write against the file as it
 * is now, or the raw arguments. With
 * `edit`, the command, the new text or the content can be changed first, and what is shown is the
 * person's version.
 */
export function ApprovalDetails({ approval, edit }: { approval: ApprovalView; edit?: ArgEdit | undefined }) {
  const args = argsObject(approval.args);
  const command = stringArg(args, 'command');
  const path = stringArg(args, 'path');
  const oldString = stringArg(args, 'old_string');
  const newString = stringArg(args, 'new_string');
  const content = stringArg(args, 'content');
  const cwd = stringArg(args, 'cwd');
  const reason = statedReason(args);
  const editing = edit?.editing === true ? edit : undefined;

  return (
    <div className="approval-details">
      {command !== undefined ? (
        <section aria-label="Command">
          <Heading edit={edit}>Command{cwd ? <span className="faint"> in {cwd}</span> : null}</Heading>
          {editing ? (
            <ArgEditor edit={editing} />
          ) : (
            <pre className="command code-block" data-testid="permission-command">
              {command}
            </pre>
          )}
          {/* The parser's parts are of the model's command; the person's version is checked when it is sent. */}
          {editing?.changed ? <EditedNote what="command" /> : <CommandParts commands={approval.commands} parts={approval.parts} />}
        </section>
      ) : oldString !== undefined && newString !== undefined ? (
        <section aria-label="Edit">
          <Heading edit={edit}>
            Edit <span className="mono">{path}</span>
            {args?.replace_all === true ? <span className="faint"> (every occurrence)</span> : null}
          </Heading>
          <EditPreview change={approval.change} tool={approval.tool} before={oldString} after={editing ? editing.draft : newString} />
          {editing && <ArgEditor edit={editing} />}
          {editing?.changed && <EditedNote what="new text" />}
        </section>
      ) : content !== undefined ? (
        <section aria-label="File content">
          <Heading edit={edit}>
            Write <span className="mono">{path}</span>
          </Heading>
          {approval.change ? (
            <>
              <EditPreview change={approval.change} tool={approval.tool} before="" after={editing ? editing.draft : content} />
              {editing && <ArgEditor edit={editing} />}
            </>
          ) : editing ? (
            <ArgEditor edit={editing} />
          ) : (
            <LongText text={content} testId="permission-content" />
          )}
          {editing?.changed && <EditedNote what="content" />}
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
      {/* A fence hit's or a host's question is the sandbox notice above: the same words twice would only hide the point. */}
      {approval.reason && approval.sandbox?.kind !== 'fence_hit' && approval.sandbox?.kind !== 'network' && (
        <section aria-label="Why this asks" className="approval-note">
          <h3>Why it asks</h3>
          <WhyItAsks parts={approval.parts} reason={approval.reason} />
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

/** A section's title, with the Edit affordance beside it when the argument can be changed. */
function Heading({ edit, children }: { edit: ArgEdit | undefined; children: ReactNode }) {
  return (
    <div className="details-heading">
      <h3>{children}</h3>
      {edit && !edit.editing && (
        <button type="button" className="ghost edit-button" data-testid="permission-edit" aria-keyshortcuts="E" onClick={edit.onStart}>
          Edit {edit.field.label}
          <KeyHint keys="E" />
        </button>
      )}
    </div>
  );
}

function EditedNote({ what }: { what: string }) {
  return (
    <p className="edited-note" data-testid="permission-edited-note">
      You changed the {what}. Allowing uses your version, once: Tether checks it against your rules again first (a deny rule still stops it)
      and tells the model exactly what you changed.
    </p>
  );
}
