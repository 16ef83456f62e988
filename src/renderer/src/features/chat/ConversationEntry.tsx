import { memo } from 'react';
import type { ConversationItem } from '../../../../shared/conversation';
import { AssistantMessage } from './AssistantMessage';
import { ReasoningBlock } from './ReasoningBlock';
import { ToolCard } from './ToolCard';
import { UserMessage } from './UserMessage';

/** One item of the log; tool results are drawn inside their call's card, not on their own. */
export const ConversationEntry = memo(function ConversationEntry({ sessionId, item }: { sessionId: string; item: ConversationItem }) {
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
});
