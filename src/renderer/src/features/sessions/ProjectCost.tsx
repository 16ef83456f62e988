import type { SessionSummary } from '../../../../shared/contract';
import { costTotal } from '../../../../shared/costs';
import { formatDollars, formatTokens, plural } from '../../lib/format';
import './projectCost.css';

/**
 * What a project's sessions cost together, beside its name. Sessions whose model has no known price
 * are counted in the tokens and named in the tooltip; their cost is never guessed.
 */
export function ProjectCost({ sessions }: { sessions: SessionSummary[] }) {
  const { usage, costUsd: dollars, unpriced } = costTotal(sessions);
  const { inputTokens: input, cachedInputTokens: cached, outputTokens: output } = usage;
  if (input + output === 0) return null;
  const priced = sessions.length - unpriced > 0 && dollars > 0;
  const label = priced ? formatDollars(dollars) : `${formatTokens(input + output)} tok`;
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
