import type { EventOf, StoredEvent } from '../../shared/events';

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
      return [
        `↻ retrying (${event.attempt + 1}${event.maxAttempts !== undefined ? `/${event.maxAttempts}` : ''}) in ${(event.delayMs / 1000).toFixed(1)} s: ${event.reason}`,
      ];
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
      const waited = event.waitedMs !== undefined ? `, waited ${event.waitedMs} ms for an answer` : '';
      const lines = [`${mark} ${event.title} [${event.outcome}, ${event.durationMs} ms${waited}]`];
      if (options.full || event.outcome !== 'ok') lines.push(...indent(event.output, options.full ? Infinity : 12));
      return lines;
    }
    case 'session.tainted':
      return [`  ⚠ outside content: ${event.reason}; actions that can send data out now ask first`];
    case 'repository.quarantined':
      return [
        `  ⚠ git repository ${event.path} (${event.found}) could run ${event.programs.join('; ')}`,
        ...event.moved.map(({ from, to }) => `    moved ${from} to ${to}`),
        ...(event.failed ? [`    NOT made harmless: ${event.failed}`] : []),
      ];
    case 'sandbox.turned_off':
      return [`  ⚠ no sandbox: commands in this run run with your full access (${event.by})`];
    case 'plan.updated':
      return ['  plan:', ...event.steps.map((step) => `    ${planMark[step.status]} ${step.step}`)];
    case 'session.finished':
      return [`■ ${event.status}: ${event.reason}`];
    case 'instructions.loaded':
      return [
        ...event.files.map((file) => `  instructions: ${file.path} (${file.chars} chars${file.truncated ? ', capped' : ''})`),
        ...event.warnings.map((warning) => `  ⚠ ${warning}`),
      ];
    case 'context.compacting':
      return [`  compacting the conversation (${event.trigger}, ~${event.tokensBefore} tokens)…`];
    case 'context.compacted':
      return [
        `  compacted: ~${event.tokensBefore} → ~${event.tokensAfter} tokens; kept from item ${event.keptFromItem}`,
        ...(options.full ? indent(event.summary, Infinity) : []),
      ];
    case 'context.compaction_failed':
      return [`  ⚠ not compacted: ${event.reason}`];
    case 'checkpoint.created':
      return event.changed || event.skipped > 0
        ? [`  checkpoint ${event.commit.slice(0, 12)}${event.skipped > 0 ? ` (${event.skipped} files left out)` : ''}`]
        : [];
    case 'checkpoint.failed':
      return [`  ⚠ no checkpoint: ${event.reason}`];
    case 'session.rewound':
      return [
        `⟲ rewound (${event.restore}) to event ${event.toSeq}${event.files.length ? `; ${event.files.length} files restored` : ''}`,
        ...event.warnings.map((w) => `  ⚠ not undone: ${w.summary} (${w.why})`),
      ];
    case 'changes.reverted':
      return [`⤺ the person reverted ${event.note}`];
    case 'changes.revert_undone':
      return [`⤻ the person undid their revert of ${event.note}`];
    case 'changes.accepted':
      return event.paths
        ? [`✓ the person accepted the changes to ${event.paths.join(', ')} so far`]
        : [`✓ the person accepted the changes so far (${event.scope === 'turn' ? 'last turn' : 'session'})`];
    case 'changes.accept_undone':
      return [`↺ the person undid their accept at event ${event.acceptSeq}`];
    case 'worktree.created':
      return [`  working in worktree ${event.path} on branch ${event.branch} (from ${event.baseCommit.slice(0, 12)})`];
    case 'worktree.finished':
      return [
        `■ worktree ${event.action === 'discard' ? 'discarded' : `${event.action === 'merge' ? 'merged' : 'squashed'}${event.commit ? ` as ${event.commit.slice(0, 12)}` : ''}`}`,
      ];
    case 'session.rewind_undone':
      return [
        `⟳ rewind at event ${event.rewindSeq} undone (${event.restore})`,
        ...event.warnings.map((w) => `  ⚠ not undone: ${w.summary} (${w.why})`),
      ];
    case 'hook.ran':
      return [formatHookRan(event)];
  }
}

function formatHookRan(event: EventOf<'hook.ran'>): string {
  const hook = `${event.hookEvent} hook (${event.source}) \`${event.command}\``;
  switch (event.result) {
    case 'ok':
      return `  ↪ ${hook}${event.decision ? `: ${event.decision}${event.reason ? ` (${event.reason})` : ''}` : ''}`;
    case 'blocked':
      return `  ✗ ${hook} blocked: ${event.reason ?? 'no reason given'}`;
    case 'failed':
      return `  ⚠ ${event.problem ?? `${hook} failed`}`;
    case 'untrusted':
      return `  ↪ ${hook} not run: the project's folder is not trusted`;
  }
}

const planMark = { pending: '[ ]', in_progress: '[~]', done: '[x]' } as const;

function indent(text: string, maxLines: number): string[] {
  const lines = text.replace(/\n$/, '').split('\n');
  const shown = lines.length > maxLines ? [...lines.slice(0, maxLines), `… ${lines.length - maxLines} more lines`] : lines;
  return shown.map((line) => `    ${line}`);
}
