import { useApp } from '../../stores/useApp';
import { ReasoningBlock } from './ReasoningBlock';

export function StreamingReasoning({ sessionId }: { sessionId: string }) {
  const text = useApp((state) => state.liveReasoning[sessionId]);
  if (!text) return null;
  return <ReasoningBlock text={text} live />;
}
