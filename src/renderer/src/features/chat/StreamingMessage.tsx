import { useApp } from '../../stores/useApp';
import { Markdown } from './Markdown';

/** The response being written, redrawn at most once a frame (the store batches the deltas). */
export function StreamingMessage({ sessionId }: { sessionId: string }) {
  const text = useApp((state) => state.liveText[sessionId]);
  if (!text) return null;
  return (
    <div className="message assistant streaming" data-testid="message-streaming" aria-live="off">
      <Markdown text={text} streaming />
      <span className="caret" aria-hidden="true" />
    </div>
  );
}
