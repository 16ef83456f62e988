import type { RewindPoint } from '../../../../shared/rewinds';
import type { SessionState } from '../../../../shared/session';

/** Where the conversation offers "Rewind to here": user messages by item index, tool cards by call id. */
export interface RewindAnchors {
  byItem: Map<number, number>;
  byCall: Map<string, number>;
}

export function rewindAnchors(points: readonly RewindPoint[]): RewindAnchors {
  const byItem = new Map<number, number>();
  const byCall = new Map<string, number>();
  for (const point of points) {
    if (point.kind === 'message') byItem.set(point.mark.items - 1, point.seq);
    else if (point.callId) byCall.set(point.callId, point.seq);
  }
  return { byItem, byCall };
}

const LABEL_CHARS = 60;

/** A step in a few words, for the dialog and the marker: `your message "fix it"`, `run_command npm test`. */
export function stepLabel(
  state: Pick<SessionState, 'rewindPoints' | 'rewinds' | 'items' | 'itemsFrom' | 'toolCalls'>,
  seq: number,
): string {
  const live = state.rewindPoints.find((candidate) => candidate.seq === seq);
  // A step a rewind took out of the conversation is found in what that rewind kept of it.
  const rewound = live ? undefined : state.rewinds.find((rewind) => rewind.before.points.some((candidate) => candidate.seq === seq));
  const point = live ?? rewound?.before.points.find((candidate) => candidate.seq === seq);
  if (!point) return 'an earlier step';
  if (point.kind === 'message') {
    // Marks count the whole conversation; what is held may start later (a window, a rewind's kept copy).
    const item = rewound
      ? rewound.before.items[point.mark.items - 1 - (rewound.before.itemsFrom ?? 0)]
      : state.items[point.mark.items - 1 - state.itemsFrom];
    // A snapshot keeps only a little of what an old rewind took out: a message it no longer holds is named as such.
    if (item?.type !== 'user') return 'an earlier message of yours';
    return `your message "${shorten(item.text.trim().split('\n')[0] ?? '')}"`;
  }
  const call = point.callId ? state.toolCalls[point.callId] : undefined;
  return call ? `after ${call.name}${call.title ? `: ${shorten(call.title)}` : ''}` : 'after a tool call';
}

function shorten(text: string): string {
  return text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text;
}
