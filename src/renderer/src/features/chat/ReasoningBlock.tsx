/** The model's reasoning summary, folded away unless asked for. */
export function ReasoningBlock({ text, live = false }: { text: string; live?: boolean }) {
  return (
    <details className={`reasoning${live ? ' live' : ''}`} data-testid="reasoning">
      <summary>{live ? 'Thinking…' : 'Reasoning'}</summary>
      <div className="reasoning-text">{text}</div>
    </details>
  );
}
