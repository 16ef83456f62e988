/**
 * The max_tokens sent when the configuration names none. Anthropic requires the field and refuses a
 * value above the model's own limit, so each family gets the most it is known to accept, capped
 * at 32,000: room for a large file in one edit without reserving most of the context window.
 * A model this table does not know gets 8,192, which every Claude model since 3.5 accepts.
 */
export function defaultMaxTokens(model: string): number {
  const id = model.toLowerCase();
  if (/claude-3-(opus|sonnet|haiku)/.test(id)) return 4096;
  if (/claude-3-[57]/.test(id)) return 8192;
  const family = /claude-(?:opus|sonnet|haiku|fable|mythos)-(\d+)/.exec(id);
  if (family && Number(family[1]) >= 4) return 32_000;
  return 8192;
}
