import type { SessionSummary } from '../../../../shared/contract';
import { formatTokens, plural } from '../../lib/format';
import '../chat/context.css';

/**
 * What a project's sessions cost together, beside its name. Sessions whose model has no known price
 * are counted in the tokens and named in the tooltip; their cost is never guessed.
 */
export function ProjectCost({ sessions }: { sessions: SessionSummary[] }) {
  let input = 0;
  let cached = 0;
  let output = 0;
  let dollars = 0;
  let unpriced = 0;
  for (const session of sessions) {
    input += session.usage.inputTokens;
    cached += session.usage.cachedInputTokens;
    output += session.usage.outputTokens;
    if (session.costUsd !== null) dollars += session.costUsd;
    else if (session.usage.inputTokens + session.usage.outputTokens > 0) unpriced += 1;
  }
  if (input + output === 0) return null;
  const priced = sessions.length - unpriced > 0 && dollars > 0;
  const label = priced ? (dollars >= 1 ? `$${dollars.toFixed(2)}` : `$${dollars.toFixed(4)}`) : `${formatTokens(input + output)} tok`;
  const title =
    `${plural(sessions.length, 'session')}: ${input.toLocaleString('en-US')} tokens in (${cached.toLocaleString('en-US')} cached), ` +
    `${output.toLocaleString('en-US')} out` +
    (priced ? `; $${dollars.toFixed(4)}` : '') +
    (unpriced > 0 ? `; ${plural(unpriced, 'session')} at unknown cost` : '');
  return (
    <span className="project-cost faint" data-testid="project-cost" title={title}>
      {label}
      {priced && unpriced > 0 ? '+' : ''}
    </span>
  );
}
