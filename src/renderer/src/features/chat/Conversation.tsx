import { Fragment, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useApp } from '../../stores/useApp';
import { ConversationEntry } from './ConversationEntry';
import { StreamingReasoning } from './StreamingReasoning';
import { StreamingMessage } from './StreamingMessage';
import { QueuedMessages } from './QueuedMessages';
import { EndNotice } from './EndNotice';
import { EndingNotice } from './EndingNotice';
import { RetryNotice } from './RetryNotice';
import { earlierWindowStart, firstWindowStart } from './conversationWindow';
import { CompactionMarker } from './CompactionMarker';
import { RewindDialog } from './RewindDialog';
import { RewindMarker } from './RewindMarker';
import { rewindAnchors } from './rewindSteps';

/** How close to the bottom counts as "following along": new content then keeps it in view. */
const STICK_PX = 48;

/**
 * The conversation of one session. It re-renders when the log changes (an event), not per token:
 * the text being streamed is its own component, subscribed to its own buffer.
 *
 * A long session opens on its latest part (see conversationWindow.ts); earlier entries are drawn as
 * the person scrolls up to them, with the view held where it was, and fetched first when the log
 * does not hold them yet (it opens holding only its latest items, sessionWindow.ts). Indices here
 * count items of the whole conversation, as markers and rewind points do.
 */
export function Conversation({ sessionId }: { sessionId: string }) {
  const items = useApp((state) => state.logs[sessionId]?.state.items);
  const itemsFrom = useApp((state) => state.logs[sessionId]?.state.itemsFrom ?? 0);
  const paging = useApp((state) => state.logs[sessionId]?.paging ?? false);
  const loadEarlier = useApp((state) => state.loadEarlier);
  const rewindPoints = useApp((state) => state.logs[sessionId]?.state.rewindPoints);
  const rewinds = useApp((state) => state.logs[sessionId]?.state.rewinds);
  const anchors = useMemo(() => rewindAnchors(rewindPoints ?? []), [rewindPoints]);
  // Rewind markers by the item they come before; a marker at the end comes after the last item.
  const markers = useMemo(() => {
    const byItem = new Map<number, NonNullable<typeof rewinds>>();
    for (const rewind of rewinds ?? []) if (!rewind.hidden) byItem.set(rewind.atItem, [...(byItem.get(rewind.atItem) ?? []), rewind]);
    return byItem;
  }, [rewinds]);
  const compactions = useApp((state) => state.logs[sessionId]?.state.compactions);
  // Compaction markers by the item count when each happened: they sit before the next item, or at the end.
  const compactedAt = useMemo(() => {
    const byItem = new Map<number, NonNullable<typeof compactions>>();
    for (const compaction of compactions ?? []) byItem.set(compaction.atItem, [...(byItem.get(compaction.atItem) ?? []), compaction]);
    return byItem;
  }, [compactions]);
  const endings = useApp((state) => state.logs[sessionId]?.state.endings);
  const loaded = useApp((state) => state.logs[sessionId]?.loaded ?? false);
  const error = useApp((state) => state.logs[sessionId]?.error);
  const loadSession = useApp((state) => state.loadSession);
  const rewindDialogHere = useApp((state) => state.rewindDialog?.sessionId === sessionId);
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  // Fixed once the history has arrived, so entries that arrive later are added below, not swapped in.
  const [windowStart, setWindowStart] = useState<number | null>(null);
  // Distance from the bottom to keep while earlier entries are added above.
  const keepFromBottom = useRef<number | null>(null);
  const count = itemsFrom + (items?.length ?? 0);
  // Failure notices stay where each stop happened: before the next item, or at the end (also past a rewind's end).
  const endedAt = useMemo(() => {
    const byItem = new Map<number, { index: number; ending: NonNullable<typeof endings>[number] }[]>();
    (endings ?? []).forEach((ending, index) => {
      const at = Math.min(ending.atItem, count);
      byItem.set(at, [...(byItem.get(at) ?? []), { index, ending }]);
    });
    return byItem;
  }, [endings, count]);
  const lastEnding = (endings?.length ?? 0) - 1;
  // A rewind may leave fewer items than the window started at: never start past what there is, nor before what the log holds.
  const start = Math.max(itemsFrom, Math.min(windowStart ?? firstWindowStart(count), firstWindowStart(count)));

  function handleScroll() {
    const element = scroller.current;
    if (!element) return;
    stuck.current = element.scrollHeight - element.scrollTop - element.clientHeight < STICK_PX;
    if (start > 0 && element.scrollTop < element.clientHeight) showEarlier();
  }

  function showEarlier() {
    const element = scroller.current;
    if (!element || start === 0 || keepFromBottom.current !== null) return;
    keepFromBottom.current = element.scrollHeight - element.scrollTop;
    const wanted = earlierWindowStart(start);
    setWindowStart(wanted);
    // Items the log does not hold yet are fetched; the window grows over them when they arrive.
    if (wanted < itemsFrom) void loadEarlier(sessionId);
  }

  useLayoutEffect(() => {
    if (windowStart === null && loaded && count > 0) setWindowStart(firstWindowStart(count));
  }, [windowStart, loaded, count]);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [loaded]);

  useLayoutEffect(() => {
    const element = scroller.current;
    const kept = keepFromBottom.current;
    // While a page is on its way the view waits for it; once it is in (or failed), the view is held where it was.
    if (!element || kept === null || paging) return;
    keepFromBottom.current = null;
    element.scrollTop = element.scrollHeight - kept;
  }, [start, paging]);

  // Content grows from many places (events, streamed text, an expanded card): follow it only if already at the bottom.
  useEffect(() => {
    const inner = content.current;
    const element = scroller.current;
    if (!inner || !element) return undefined;
    const observer = new ResizeObserver(() => {
      if (stuck.current) element.scrollTop = element.scrollHeight;
    });
    observer.observe(inner);
    return () => observer.disconnect();
  }, []);

  return (
    <div
      className="conversation scroll"
      ref={scroller}
      onScroll={handleScroll}
      data-testid="conversation"
      role="log"
      aria-label="Conversation"
      aria-busy={!loaded}
    >
      <div className="conversation-content" ref={content}>
        {!loaded && !error && <p className="faint conversation-note">Loading the session…</p>}
        {error && !loaded && (
          <div className="conversation-note error-text" role="alert">
            Could not load this session: {error}{' '}
            <button type="button" onClick={() => void loadSession(sessionId)}>
              Try again
            </button>
          </div>
        )}
        {start > 0 && (
          <button
            type="button"
            className="ghost conversation-earlier"
            data-testid="conversation-earlier"
            aria-busy={paging}
            onClick={showEarlier}
          >
            {paging ? 'Loading earlier messages…' : 'Show earlier messages'}
          </button>
        )}
        {items?.slice(start - itemsFrom).map((item, offset) => (
          <Fragment key={start + offset}>
            {markers.get(start + offset)?.map((rewind) => (
              <RewindMarker key={`rewind-${rewind.seq}`} sessionId={sessionId} rewind={rewind} />
            ))}
            {compactedAt.get(start + offset)?.map((compaction, index) => (
              <CompactionMarker key={`compaction-${index}`} compaction={compaction} />
            ))}
            {endedAt.get(start + offset)?.map(({ index, ending }) => (
              <EndingNotice key={`ending-${index}`} sessionId={sessionId} ending={ending} latest={index === lastEnding} />
            ))}
            <ConversationEntry
              sessionId={sessionId}
              item={item}
              rewindSeq={
                item.type === 'user'
                  ? anchors.byItem.get(start + offset)
                  : item.type === 'tool_call'
                    ? anchors.byCall.get(item.callId)
                    : undefined
              }
            />
          </Fragment>
        ))}
        {markers.get(count)?.map((rewind) => (
          <RewindMarker key={`rewind-${rewind.seq}`} sessionId={sessionId} rewind={rewind} />
        ))}
        {compactedAt.get(count)?.map((compaction, index) => (
          <CompactionMarker key={`compaction-${index}`} compaction={compaction} />
        ))}
        {endedAt.get(count)?.map(({ index, ending }) => (
          <EndingNotice key={`ending-${index}`} sessionId={sessionId} ending={ending} latest={index === lastEnding} />
        ))}
        <QueuedMessages sessionId={sessionId} />
        <StreamingReasoning sessionId={sessionId} />
        <StreamingMessage sessionId={sessionId} />
        <RetryNotice sessionId={sessionId} />
        <EndNotice sessionId={sessionId} />
      </div>
      {rewindDialogHere && <RewindDialog />}
    </div>
  );
}
