import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requests } from '../src/shared/contract';
import type { EventOf } from '../src/shared/events';
import { closeServices, openServices } from './support/appServices';
import { fixtureRepo, removeTempDirs } from './support/tempDirs';

// An edited command is judged again as the person types it (issue 29, item 3): `approval:preview`
// runs the person's version through the same engine path the answer takes (the session's rules and
// taint), with no side effects and nothing logged, and "Allow always" for their version creates the
// rule offered for it, never one broader. Through the real services, broker and engine.

afterEach(async () => {
  await closeServices();
  removeTempDirs();
});

async function waitingFor(command: string, options: { settings?: object } = {}) {
  const repo = fixtureRepo('failing-test');
  if (options.settings) {
    mkdirSync(path.join(repo, '.tether'), { recursive: true });
    writeFileSync(path.join(repo, '.tether', 'settings.json'), JSON.stringify(options.settings));
  }
  const opened = await openServices({
    turns: [{ toolCalls: [{ name: 'run_command', arguments: { command } }] }, { text: 'done' }],
  });
  const { sessionId } = await opened.handlers['session:start']({ workspace: repo, task: 'work' });
  const asked = (await opened.waitForEvent('approval.asked')).event as EventOf<'approval.asked'>;
  const preview = async (version: string) =>
    requests['approval:preview'].output.parse(
      await opened.handlers['approval:preview']({ approvalId: asked.approvalId, args: { command: version } }),
    );
  return { ...opened, repo, sessionId, asked, preview };
}

describe('approval:preview, the person’s version judged as they type', () => {
  it('finds the deletion in an edited command, with its risk, why it asks and what Allow always would create', async () => {
    const { asked, preview, events, repo } = await waitingFor('echo hello > out.txt');
    expect(asked.parts?.map((part) => part.risk)).toEqual(['writes']);
    const logged = events.length;

    const judged = await preview('rm -rf src && echo edited > out.txt');
    expect(judged.action).toBe('ask');
    expect(judged.commands).toEqual([
      ['rm', '-rf', 'src'],
      ['echo', 'edited'],
    ]);
    expect(judged.parts?.map((part) => [part.risk, part.effects.map((effect) => effect.text)])).toEqual([
      ['deletes', ['rm deletes src']],
      ['writes', ['echo writes out.txt']],
    ]);
    expect(judged.reason).toMatch(/rm -rf src/);
    expect(judged.allowAlways).toEqual({ rule: 'run_command(rm -rf src && echo edited > out.txt)' });
    // Judging ran nothing and logged nothing.
    expect(existsSync(path.join(repo, 'src'))).toBe(true);
    expect(existsSync(path.join(repo, 'out.txt'))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events.length).toBe(logged);
  });

  it('says what a deny rule and an allow rule make of the person’s version, and when it is no valid call', async () => {
    const { preview, handlers, asked } = await waitingFor('echo hello > out.txt', {
      settings: { permissions: { deny: ['run_command(rm *)'] } },
    });
    const denied = await preview('rm README.md');
    expect(denied).toMatchObject({ action: 'deny', rule: 'run_command(rm *)' });
    expect(denied.allowAlways).toBeUndefined();
    // Only the command is the person's to change: another field, or a command that is not text, is no valid call.
    const invalid = requests['approval:preview'].output.parse(
      await handlers['approval:preview']({ approvalId: asked.approvalId, args: { command: 42 } }),
    );
    expect(invalid.problem).toMatch(/command/);
    // A read-only version needs nobody's allow.
    expect((await preview('cat README.md')).action).toBe('allow');
  });

  it('refuses to judge a request that no longer waits', async () => {
    const { preview, handlers, asked, waitForEvent } = await waitingFor('echo hello > out.txt');
    await handlers['approval:answer']({ approvalId: asked.approvalId, action: 'deny', scope: 'once' });
    await waitForEvent('approval.answered');
    await expect(preview('echo edited > out.txt')).rejects.toThrow(/no longer waiting/);
  });
});

describe('Allow always for the person’s version', () => {
  it('creates the rule offered for their version, as the request showed it', async () => {
    const { preview, handlers, asked, waitForEvent } = await waitingFor('echo hello > out.txt');
    const offer = (await preview('npm test -- --test-reporter=dot')).allowAlways;
    expect(offer).toEqual({ rule: 'run_command(npm test *)' });
    await handlers['approval:answer']({
      approvalId: asked.approvalId,
      action: 'allow',
      scope: 'session',
      rule: 'run_command(npm test *)',
      args: { command: 'npm test -- --test-reporter=dot' },
    });
    const answered = (await waitForEvent('approval.answered')).event as EventOf<'approval.answered'>;
    expect(answered.decision).toMatchObject({ action: 'allow', scope: 'session', rule: 'run_command(npm test *)' });
    expect(answered.editedSummary).toBe('npm test -- --test-reporter=dot');
    await waitForEvent('tool.started');
    expect((await handlers['rules:list']({})).map((rule) => rule.pattern)).toContain('run_command(npm test *)');
  });

  it('allows once, and creates nothing, for a version the request never showed judged', async () => {
    const { preview, handlers, asked, waitForEvent } = await waitingFor('echo hello > out.txt');
    // Judged as `npm test -- --a`, sent as `npm test -- --b`: the rule for the version sent was never shown.
    await preview('npm test -- --a');
    await handlers['approval:answer']({
      approvalId: asked.approvalId,
      action: 'allow',
      scope: 'session',
      rule: 'run_command(npm test *)',
      args: { command: 'npm test -- --b' },
    });
    const answered = (await waitForEvent('approval.answered')).event as EventOf<'approval.answered'>;
    expect(answered.decision).toMatchObject({ action: 'allow', scope: 'once' });
    expect(await handlers['rules:list']({})).toEqual([]);
  });

  it('allows once, and creates nothing, when the rule sent is broader than the one offered for their version', async () => {
    const { preview, handlers, asked, waitForEvent } = await waitingFor('echo hello > out.txt');
    // The model's call would have been offered `run_command(echo hello > out.txt)`; for `rm -rf src` only its exact text.
    expect((await preview('rm -rf src')).allowAlways).toEqual({ rule: 'run_command(rm -rf src)' });
    await handlers['approval:answer']({
      approvalId: asked.approvalId,
      action: 'allow',
      scope: 'project',
      rule: 'run_command(rm *)',
      args: { command: 'rm -rf src' },
    });
    const answered = (await waitForEvent('approval.answered')).event as EventOf<'approval.answered'>;
    expect(answered.decision).toMatchObject({ action: 'allow', scope: 'once' });
    expect(answered.decision.rule).toBeUndefined();
    expect(await handlers['rules:list']({})).toEqual([]);
  });
});
