import type { Json } from '../../../../shared/json';
import type { ApprovalView } from '../../../../shared/session';
import { toolTraits, type EditableArgument } from '../../../../shared/toolCatalog';
import { argsObject, stringArg } from '../../lib/toolArgs';

/**
 * The person's change to a call before they allow it: which argument the dialog lets them edit, and
 * what their draft amounts to. The core checks the edit again (schema and rules); this is so the
 * person hears about a plain mistake before sending, not after.
 */

/** The argument a person may edit, per tool (the tool catalog's): the command, the new text of an edit, a file's content. */
export interface EditableField extends EditableArgument {
  /** The model's value. */
  original: string;
}

/** What the draft comes to: the model's call as it was, a draft that cannot be sent, or the person's version. */
export type EditOutcome = { kind: 'unchanged' } | { kind: 'invalid'; problem: string } | { kind: 'changed'; args: Record<string, Json> };

export function editableField(
  approval: Pick<ApprovalView, 'tool' | 'args'> & Partial<Pick<ApprovalView, 'sandbox'>>,
): EditableField | undefined {
  // A sandbox question asked within a call (run it outside the sandbox?) is a yes or no about that command, not a new one.
  if (approval.sandbox?.followUp) return undefined;
  const field = toolTraits(approval.tool)?.editable;
  if (!field) return undefined;
  const original = stringArg(argsObject(approval.args), field.name);
  return original === undefined ? undefined : { ...field, original };
}

export function editOutcome(approval: Pick<ApprovalView, 'args'>, field: EditableField, draft: string): EditOutcome {
  // A command line ends at its last line: the line break Enter leaves at the end is not part of it.
  const value = field.name === 'command' ? draft.replace(/[\r\n]+$/, '') : draft;
  if (value === field.original) return { kind: 'unchanged' };
  if (field.name === 'command' && value.trim() === '') {
    return { kind: 'invalid', problem: 'The command is empty: type the command to run, reset it to the model’s, or deny the request.' };
  }
  return { kind: 'changed', args: { ...argsObject(approval.args), [field.name]: value } };
}
