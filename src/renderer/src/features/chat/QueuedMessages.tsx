import { useApp } from '../../stores/useApp';

const none: string[] = [];

/** Messages sent while the agent works, until its next turn takes them. */
export function QueuedMessages({ sessionId }: { sessionId: string }) {
  const queued = useApp((state) => state.queued[sessionId] ?? none);
  if (queued.length === 0) return null;
  return (
    <>
      {queued.map((text, index) => (
        <div key={index} className="message user queued" data-testid="message-queued">
          <div className="message-role">You · queued for the next turn</div>
          <div className="message-text">{text}</div>
        </div>
      ))}
    </>
  );
}
