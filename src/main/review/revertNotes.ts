import type { UserItem } from '../../shared/conversation';
import type { SessionState } from '../../shared/session';
import template from './revertNote.txt?raw';
import { fillTemplate } from '../agent/fillTemplate';

/**
 * What the model is told about the person's reverts: one user-role note per place in the
 * conversation where reverts happened (several reverts between two requests make one note), keyed
 * by the index of the conversation item it goes before. Each note sits at its place in every later
 * request, so the model reads it once, and the prompt prefix never changes.
 */
export function revertNotes(state: Pick<SessionState, 'reverts'>): Map<number, UserItem> {
  const grouped = new Map<number, string[]>();
  for (const revert of state.reverts) {
    const notes = grouped.get(revert.atItem) ?? [];
    notes.push(revert.note);
    grouped.set(revert.atItem, notes);
  }
  const notes = new Map<number, UserItem>();
  for (const [atItem, changes] of grouped)
    notes.set(atItem, { type: 'user', text: fillTemplate(template.trim(), { changes: changes.join(', ') }) });
  return notes;
}
