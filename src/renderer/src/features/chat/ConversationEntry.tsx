import { memo } from 'react';
import type { ConversationItem } from '../../../../shared/conversation';
import { AssistantMessage } from './AssistantMessage';
import { ReasoningBlock } from './ReasoningBlock';
import { RewindHereButton } from './RewindHereButton';
import { ToolCard } from './ToolCard';
import { UserMessage } from './UserMessage';

/**
 * One item of the log; tool results are drawn inside their call's card, not on their own. A step
 * that can be rewound to (`rewindSeq`) carries a "Rewind to here" button.
 */
export const ConversationEntry = memo(function ConversationEntry({
  sessionId,
  item,
  rewindSeq,
}: {
  sessionId: string;
  item: ConversationItem;
  rewindSeq?: number | undefined;
}) {
  const entry = drawn(sessionId, item);
  if (rewindSeq === undefined || entry === null) return entry;
  return (
    <div className={`rewindable ${item.type}`}>
      {entry}
      <RewindHereButton sessionId={sessionId} seq={rewindSeq} />
    </div>
  );
});

function drawn(sessionId: string, item: ConversationItem) {
  switch (item.type) {
    case 'user':
      return <UserMessage text={item.text} />;
    case 'assistant':
      return <AssistantMessage text={item.text} />;
    case 'reasoning':
      return item.summary.trim() ? <ReasoningBlock text={item.summary} /> : null;
    case 'tool_call':
      return <ToolCard sessionId={sessionId} callId={item.callId} />;
    case 'tool_result':
      return null;
  }
}
