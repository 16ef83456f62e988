import type { StoredEvent } from '../../shared/events';

/** One stored event as a person reads it in a terminal; the same words for `run` and `sessions show`. */
export function formatEvent(stored: StoredEvent, options: { full?: boolean } = {}): string[] {
  const event = stored.event;
  switch (event.type) {
    case 'session.started':
      return [`● session started in ${event.workspace}: ${event.model} (${event.api} API at ${event.baseUrl}), maxSteps ${event.maxSteps}`];
    case 'session.resumed':
      return ['● session resumed'];
    case 'user.messaged':
      return [`› ${event.text}`];
    case 'model.requested':
      return [`… step ${event.step}`];
    case 'model.retrying':
      return [`↻ retry ${event.attempt} in ${(event.delayMs / 1000).toFixed(1)} s: ${event.reason}`];
    case 'model.responded':
      return event.items.flatMap((item) => {
        switch (item.type) {
          case 'assistant':
            return [`‹ ${item.text}`];
          case 'reasoning':
            return item.summary ? [`  (thinking) ${item.summary}`] : [];
          case 'tool_call':
            return [`→ ${item.name} ${item.arguments}`];
          default:
            return [];
        }
      });
    case 'approval.asked':
      return [`? permission asked (${event.risk}): ${event.summary}${event.reason ? ` (${event.reason})` : ''}`];
    case 'approval.answered':
      return [
        event.decision.action === 'allow'
          ? `  allowed ${event.decision.scope} by ${event.decision.by}${event.decision.rule ? ` (rule ${event.decision.rule})` : ''}`
          : `  denied by ${event.decision.by}${event.decision.message ? `: ${event.decision.message}` : ''}`,
        ...(event.decision.editedArgs !== undefined ? [`  changed before allowing: ${JSON.stringify(event.decision.editedArgs)}`] : []),
      ];
    case 'tool.started':
      return [];
    case 'tool.finished': {
      const mark = event.outcome === 'ok' ? '✓' : event.outcome === 'denied' ? '✗' : '!';
      const lines = [`${mark} ${event.title} [${event.outcome}, ${event.durationMs} ms]`];
      if (options.full || event.outcome !== 'ok') lines.push(...indent(event.output, options.full ? Infinity : 12));
      return lines;
    }
    case 'session.tainted':
      return [`  ⚠ outside content: ${event.reason}; actions that can send data out now ask first`];
    case 'plan.updated':
      return ['  plan:', ...event.steps.map((step) => `    ${planMark[step.status]} ${step.step}`)];
    case 'session.finished':
      return [`■ ${event.status}: ${event.reason}`];
  }
}

const planMark = { pending: '[ ]', in_progress: '[~]', done: '[x]' } as const;

function indent(text: string, maxLines: number): string[] {
  const lines = text.replace(/\n$/, '').split('\n');
  const shown = lines.length > maxLines ? [...lines.slice(0, maxLines), `… ${lines.length - maxLines} more lines`] : lines;
  return shown.map((line) => `    ${line}`);
}
