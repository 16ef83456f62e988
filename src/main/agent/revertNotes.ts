import type { UserItem } from '../../shared/conversation';
import type { RevertView } from '../../shared/conversationState';
import type { SessionState } from '../../shared/session';
import template from './prompts/revertNote.txt?raw';
import undoneTemplate from './prompts/revertUndoneNote.txt?raw';
import { fillTemplate } from './fillTemplate';

/**
 * What the model is told about the person's reverts: one user-role note per place in the
 * conversation where reverts happened (several reverts between two requests make one note), keyed
 * by the index of the conversation item it goes before. Each note sits at its place in every later
 * request, so the model reads it once, and the prompt prefix never changes.
 *
 * A revert undone at the same place was never seen by the model, so neither is told; an undo of a
 * revert the model was already told of is told as such ("those changes are back").
 */
export function revertNotes(state: Pick<SessionState, 'reverts'>): Map<number, UserItem> {
  const grouped = new Map<number, RevertView[]>();
  for (const revert of state.reverts) grouped.set(revert.atItem, [...(grouped.get(revert.atItem) ?? []), revert]);
  const notes = new Map<number, UserItem>();
  for (const [atItem, entries] of grouped) {
    const reverted: string[] = [];
    const undone: string[] = [];
    for (const entry of entries) {
      if (!entry.undone) {
        reverted.push(entry.note);
        continue;
      }
      const cancelled = reverted.lastIndexOf(entry.note);
      if (cancelled >= 0) reverted.splice(cancelled, 1);
      else undone.push(entry.note);
    }
    const text = [
      reverted.length > 0 ? fillTemplate(template.trim(), { changes: reverted.join(', ') }) : '',
      undone.length > 0 ? fillTemplate(undoneTemplate.trim(), { changes: undone.join(', ') }) : '',
    ]
      .filter(Boolean)
      .join('\n\n');
    if (text) notes.set(atItem, { type: 'user', text });
  }
  return notes;
}
