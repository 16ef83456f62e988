export function UserMessage({ text }: { text: string }) {
  return (
    <div className="message user" data-testid="message-user">
      <div className="message-role">You</div>
      <div className="message-text">{text}</div>
    </div>
  );
}
