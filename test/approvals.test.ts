import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredEvent } from '../src/shared/events';
import { createCore, type Core } from '../src/main/core';
import { startScriptedModel, type ScriptedModel, type Turn } from './fixtures/scriptedModel';
import { runAnsweredSession, type Asked, type Reply } from './support/answeredSession';
import { fixtureRepo, removeTempDirs, tempDir } from './support/tempDirs';
import { allToolOutputs } from './support/toolResults';

// The person's answers, through the real runner, engine and store: what they allow, deny and
// remember, and what the core refuses to let them grant.

let core: Core;
let server: ScriptedModel | undefined;

beforeEach(() => {
  core = createCore({ dataDir: tempDir('tether-data-') });
});
afterEach(async () => {
  core.close();
  await server?.close();
  server = undefined;
  removeTempDirs();
});

/** Runs a session whose approvals are answered by `answer` (or left waiting when it returns undefined). */
async function runAnswering(repo: string, turns: Turn[], answer: (asked: Asked) => Reply | undefined) {
  server ??= await startScriptedModel({ turns: [] });
  server.push(...turns);
  return runAnsweredSession(core, server.baseUrl, repo, answer);
}

function outcomes(events: StoredEvent[]): string[] {
  return events.flatMap((stored) => (stored.event.type === 'tool.finished' ? [`${stored.event.name}:${stored.event.outcome}`] : []));
}

describe('answering permission requests', () => {
  it('Allow always at project scope remembers exactly the offered rule; the same command then runs without asking', async () => {
    const repo = fixtureRepo('failing-test');
    const first = await runAnswering(
      repo,
      [{ toolCalls: [{ name: 'run_command', arguments: { command: 'npm test -- --reporter=dot' } }] }, { text: 'ran' }],
      (asked) => ({
        action: 'allow',
        scope: 'project',
        rule: asked.allowAlways && 'rule' in asked.allowAlways ? asked.allowAlways.rule : '',
      }),
    );
    expect(first.asked[0]?.allowAlways).toEqual({ rule: 'run_command(npm test *)' });
    expect(core.store.rules.list({ includeRevoked: false }).map((rule) => [rule.pattern, rule.scope])).toEqual([
      ['run_command(npm test *)', 'project'],
    ]);
    // The grant is the project's: deleting the session it was made in keeps it.
    core.store.sessions.delete(first.sessionId);

    const second = await runAnswering(
      repo,
      [{ toolCalls: [{ name: 'run_command', arguments: { command: 'npm test' } }] }, { text: 'ran again' }],
      () => {
        throw new Error('should not ask');
      },
    );
    expect(second.asked).toEqual([]);
    expect(outcomes(second.events)).toEqual(['run_command:error']); // the fixture's test fails, but it ran
  });

  it('a denial with a message reaches the model, which tries another way', async () => {
    const repo = fixtureRepo('failing-test');
    const { asked, events } = await runAnswering(
      repo,
      [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'x' } }] },
        { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] },
        { text: 'I read instead.' },
      ],
      () => ({ action: 'deny', scope: 'once', message: 'Do not create files; just read.' }),
    );
    expect(asked).toHaveLength(1);
    expect(outcomes(events)).toEqual(['write_file:denied', 'read_file:ok']);
    expect(existsSync(path.join(repo, 'notes.txt'))).toBe(false);
    expect(allToolOutputs(server!.requests[1]!)[0]).toBe('The person denied this call. Do not create files; just read.');
  });

  it('turns an "always" that was not offered, or is broader than the offer, into "once"', async () => {
    const repo = fixtureRepo('failing-test');
    const { asked, events } = await runAnswering(
      repo,
      [
        { toolCalls: [{ name: 'run_command', arguments: { command: 'bash -c "touch made-by-bash"' } }] },
        { toolCalls: [{ name: 'run_command', arguments: { command: 'npm test -- --bail' } }] },
        { text: 'done' },
      ],
      (event) => ({
        action: 'allow',
        scope: 'everywhere',
        rule: event.summary.includes('bash') ? 'run_command(bash *)' : 'run_command(npm *)',
      }),
    );
    expect(asked[0]?.allowAlways).toEqual({ rule: 'run_command(bash -c "touch made-by-bash")' });
    const answered = events.flatMap((stored) => (stored.event.type === 'approval.answered' ? [stored.event.decision] : []));
    expect(answered.map((decision) => decision.scope)).toEqual(['once', 'once']);
    expect(core.store.rules.list()).toEqual([]);
  });
});
