import type { UserItem } from '../../shared/conversation';
import type { RewindPoint, RewindView } from '../../shared/rewinds';
import type { SessionState } from '../../shared/session';
import conversationRewound from './prompts/conversationRewound.txt?raw';
import filesRewound from './prompts/filesRewound.txt?raw';
import rewindUndone from './prompts/rewindUndone.txt?raw';
import { fillTemplate } from './fillTemplate';

const MAX_LISTED = 20;

/**
 * What the model is told about rewinds that left its picture of the files wrong: files rewound
 * under a kept conversation, a conversation rewound over files that stayed, an undo that put files
 * back. A rewind of both needs no note (the model's history and the files agree again). Each note is
 * keyed by the index of the conversation item it goes before, like the reverts' notes, so it sits at
 * its place in every later request.
 */
export function rewindNotes(state: Pick<SessionState, 'rewinds' | 'rewindPoints' | 'toolCalls'>): Map<number, UserItem> {
  const notes = new Map<number, UserItem>();
  for (const rewind of state.rewinds) {
    if (rewind.hidden) continue;
    const text = noteText(state, rewind);
    if (!text) continue;
    const earlier = notes.get(rewind.atItem);
    notes.set(rewind.atItem, { type: 'user', text: earlier ? `${earlier.text}\n\n${text}` : text });
  }
  return notes;
}

function noteText(state: Pick<SessionState, 'rewinds' | 'rewindPoints' | 'toolCalls'>, rewind: RewindView): string | undefined {
  const files = listed(rewind.files);
  if (rewind.kind === 'undo') return rewind.restore === 'conversation' || !files ? undefined : fillTemplate(rewindUndone.trim(), { files });
  if (rewind.restore === 'files')
    return fillTemplate(filesRewound.trim(), { step: stepWords(state, rewind), files: files || 'none differed' });
  if (rewind.restore === 'conversation' && files) return fillTemplate(conversationRewound.trim(), { files });
  return undefined;
}

function stepWords(state: Pick<SessionState, 'rewinds' | 'rewindPoints' | 'toolCalls'>, rewind: RewindView): string {
  const point: RewindPoint | undefined = [...state.rewindPoints, ...rewind.before.points].find(
    (candidate) => candidate.seq === rewind.toSeq,
  );
  if (point?.kind === 'checkpoint' && point.callId) {
    const call = state.toolCalls[point.callId];
    return `right after your ${call?.name ?? 'tool'} call ${point.callId}`;
  }
  return 'when the person sent an earlier message';
}

function listed(paths: readonly string[]): string {
  if (paths.length === 0) return '';
  const shown = paths.slice(0, MAX_LISTED).join(', ');
  return paths.length > MAX_LISTED ? `${shown} and ${paths.length - MAX_LISTED} more` : shown;
}
