import { Markdown } from './Markdown';

export function AssistantMessage({ text }: { text: string }) {
  return (
    <div className="message assistant" data-testid="message-assistant">
      <Markdown text={text} />
    </div>
  );
}
