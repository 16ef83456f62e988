import type { ReactNode } from 'react';
import type { ApprovalView } from '../../../../shared/session';
import { argsObject, statedReason, stringArg } from '../../lib/toolArgs';
import type { PolicyAction } from '../../../../shared/permissions';
import { ArgEditor, type ArgEdit } from './ArgEditor';
import type { DraftJudgement } from './useDraftJudgement';
import { CommandParts } from './CommandParts';
import { EditPreview } from './EditPreview';
import { ScriptRuns } from './ScriptRuns';
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
  // The person's version may be judged otherwise than the model's: already allowed, or refused by a rule.
  const verdict = editing?.changed && editing.preview.status === 'ready' ? editing.preview.preview.action : 'ask';

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
          {/* For the person's version, the parts main found in it as they typed (see useDraftJudgement). */}
          {editing?.changed && editing.preview.status !== 'ready' ? null : (
            <CommandParts commands={approval.commands} parts={approval.parts} />
          )}
          {editing?.changed && <EditedNote what="command" preview={editing.preview} />}
          {/* What the model's command's scripts run; the person's version is judged as typed, above. */}
          {!editing?.changed && <ScriptRuns runs={approval.runs} />}
        </section>
      ) : oldString !== undefined && newString !== undefined ? (
        <section aria-label="Edit">
          <Heading edit={edit}>
            Edit <span className="mono">{path}</span>
            {args?.replace_all === true ? <span className="faint"> (every occurrence)</span> : null}
          </Heading>
          <EditPreview change={approval.change} tool={approval.tool} before={oldString} after={editing ? editing.draft : newString} />
          {editing && <ArgEditor edit={editing} />}
          {editing?.changed && <EditedNote what="new text" preview={editing.preview} />}
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
          {editing?.changed && <EditedNote what="content" preview={editing.preview} />}
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
        <section aria-label="Why this asks" className="approval-note" data-verdict={verdict}>
          <h3>{verdictHeadings[verdict]}</h3>
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

const verdictHeadings: Record<PolicyAction, string> = {
  ask: 'Why it asks',
  allow: 'Your version is allowed by the rules',
  deny: 'A rule refuses your version',
};

/** What becomes of the person's version: being checked, or checked (what it does is shown above), and that the model is told. */
function EditedNote({ what, preview }: { what: string; preview: DraftJudgement }) {
  return (
    <p
      className="edited-note"
      data-testid="permission-edited-note"
      data-analysis={preview.status}
      role={preview.status === 'failed' ? 'alert' : undefined}
    >
      {preview.status === 'pending'
        ? `Checking your version of the ${what}…`
        : preview.status === 'failed'
          ? preview.message
          : `You changed the ${what}; what it does and why it asks are worked out for your version.`}{' '}
      Allowing uses your version: Tether checks it against your rules again first (a deny rule still stops it) and tells the model exactly
      what you changed.
    </p>
  );
}
