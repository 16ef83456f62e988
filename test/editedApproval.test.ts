import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initialSessionState, reduce } from '../src/shared/session';
import { createCore, type Core } from '../src/main/core';
import { startScriptedModel, type ScriptedModel, type Turn } from './fixtures/scriptedModel';
import { runAnsweredSession, type Asked, type Reply } from './support/answeredSession';
import { fixtureRepo, removeTempDirs, tempDir } from './support/tempDirs';
import { allToolOutputs } from './support/toolResults';
import { eventsOf } from './support/events';

// The person changes what they approve (the command, an edit's new text, a file's content) through
// the real runner, permission engine, PTY and store: what runs is their version, the model is told
// exactly what changed, the log keeps it, and an edit is no way around a deny rule.

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

async function runAnswering(repo: string, turns: Turn[], answer: (asked: Asked) => Reply, options: { deny?: string[] } = {}) {
  server = await startScriptedModel({ turns });
  let rulesFile: string | undefined;
  if (options.deny) {
    rulesFile = path.join(tempDir('tether-rules-'), 'rules.json');
    writeFileSync(rulesFile, JSON.stringify({ deny: options.deny }));
  }
  const { asked, events } = await runAnsweredSession(core, server.baseUrl, repo, answer, rulesFile ? { rulesFile } : {});
  /** What the model was told about its first call: the tool result in the request after it. */
  const toldModel = allToolOutputs(server.requests[1]!)[0];
  return { asked, events, toldModel };
}

/** The person's version of the call: the model's arguments as the dialog shows them, one field changed. */
function edited(asked: Asked, changes: Record<string, string>): Reply {
  return { action: 'allow', scope: 'once', args: { ...(asked.args as Record<string, never>), ...changes } };
}

describe('allowing an edited call', () => {
  it('runs the command as the person changed it, not as the model asked, and tells the model exactly what changed', async () => {
    const repo = fixtureRepo('failing-test');
    const { asked, events, toldModel } = await runAnswering(
      repo,
      [{ toolCalls: [{ name: 'run_command', arguments: { command: 'touch asked-by-model' } }] }, { text: 'done' }],
      (event) => edited(event, { command: 'touch changed-by-person' }),
    );
    expect(asked).toHaveLength(1);
    expect(existsSync(path.join(repo, 'changed-by-person'))).toBe(true);
    expect(existsSync(path.join(repo, 'asked-by-model'))).toBe(false);

    const [started] = eventsOf(events, 'tool.started');
    expect(started?.args).toMatchObject({ command: 'touch changed-by-person' });
    const [finished] = eventsOf(events, 'tool.finished');
    expect(finished?.outcome).toBe('ok');
    expect(toldModel?.split('\n')[0]).toBe(
      'The person changed the command before allowing it. You asked for: `touch asked-by-model`. It ran: `touch changed-by-person`.',
    );
    expect(toldModel).toMatch(/\n\n\(no output\)\n\nexit code 0$/);
  });

  it('records the edit in the log, where the UI and `sessions show` read the decision', async () => {
    const repo = fixtureRepo('failing-test');
    const { events } = await runAnswering(
      repo,
      [{ toolCalls: [{ name: 'run_command', arguments: { command: 'touch asked-by-model' } }] }, { text: 'done' }],
      (event) => edited(event, { command: 'touch changed-by-person' }),
    );
    const [answered] = eventsOf(events, 'approval.answered');
    expect(answered?.decision).toMatchObject({
      action: 'allow',
      scope: 'once',
      by: 'person',
      editedArgs: { command: 'touch changed-by-person' },
    });
    // The fold both the core and the renderer use carries it to the approval's view.
    const state = events.reduce((folded, stored) => reduce(folded, stored.event), initialSessionState);
    expect(state.approvals[answered!.approvalId]?.decision?.editedArgs).toMatchObject({ command: 'touch changed-by-person' });
  });

  it('allows an edited call once only: "Allow always" creates no rule the person never saw for their version', async () => {
    const repo = fixtureRepo('failing-test');
    const { asked, events } = await runAnswering(
      repo,
      [{ toolCalls: [{ name: 'run_command', arguments: { command: 'npm test' } }] }, { text: 'done' }],
      (event) => ({ ...edited(event, { command: 'npm test -- --test-reporter=dot' }), scope: 'project', rule: 'run_command(npm test *)' }),
    );
    expect(asked[0]?.allowAlways).toEqual({ rule: 'run_command(npm test *)' });
    const [answered] = eventsOf(events, 'approval.answered');
    expect(answered?.decision.scope).toBe('once');
    expect(answered?.decision.rule).toBeUndefined();
    expect(core.store.rules.list()).toEqual([]);
    expect(eventsOf(events, 'tool.started')[0]?.args).toMatchObject({ command: 'npm test -- --test-reporter=dot' });
  });

  it('treats an "edit" that changes nothing as no edit: Allow always still remembers the offered rule', async () => {
    const repo = fixtureRepo('failing-test');
    const { events, toldModel } = await runAnswering(
      repo,
      [{ toolCalls: [{ name: 'run_command', arguments: { command: 'npm test' } }] }, { text: 'done' }],
      (event) => ({ ...edited(event, {}), scope: 'session', rule: 'run_command(npm test *)' }),
    );
    const [answered] = eventsOf(events, 'approval.answered');
    expect(answered?.decision).toEqual({ action: 'allow', scope: 'session', by: 'person', rule: 'run_command(npm test *)' });
    expect(core.store.rules.list().map((rule) => rule.pattern)).toEqual(['run_command(npm test *)']);
    expect(toldModel).not.toMatch(/changed/);
  });

  it('denies an edited command that a deny rule matches, with the rule, and runs neither version', async () => {
    const repo = fixtureRepo('failing-test');
    const { events, toldModel } = await runAnswering(
      repo,
      [{ toolCalls: [{ name: 'run_command', arguments: { command: 'touch asked-by-model' } }] }, { text: 'done' }],
      (event) => edited(event, { command: 'rm README.md' }),
      { deny: ['run_command(rm *)'] },
    );
    expect(existsSync(path.join(repo, 'README.md'))).toBe(true);
    expect(existsSync(path.join(repo, 'asked-by-model'))).toBe(false);
    expect(eventsOf(events, 'tool.started')).toEqual([]);
    const [finished] = eventsOf(events, 'tool.finished');
    expect(finished?.outcome).toBe('denied');
    expect(finished?.title).toBe('Denied: rm README.md');
    expect(toldModel).toContain('You asked for: `touch asked-by-model`. They changed it to: `rm README.md`.');
    expect(toldModel).toContain('The changed call was not run. Denied by the rule run_command(rm *)');
  });

  it('refuses edited arguments the tool would not accept, with a clear message, and runs nothing', async () => {
    const repo = fixtureRepo('failing-test');
    const { events, toldModel } = await runAnswering(
      repo,
      [{ toolCalls: [{ name: 'run_command', arguments: { command: 'touch asked-by-model' } }] }, { text: 'done' }],
      () => ({ action: 'allow', scope: 'once', args: { command: 42 } }),
    );
    expect(existsSync(path.join(repo, 'asked-by-model'))).toBe(false);
    expect(eventsOf(events, 'tool.started')).toEqual([]);
    const [finished] = eventsOf(events, 'tool.finished');
    expect(finished?.outcome).toBe('error');
    expect(finished?.title).toBe("Not run: the person's edit of run_command was invalid");
    expect(toldModel).toMatch(
      /^The person edited the arguments of this run_command call before allowing it, but the edited arguments are invalid, so nothing was run:\n/,
    );
    expect(toldModel).toMatch(/command/);
    // The log holds what the person sent, so the refusal can be explained.
    expect(eventsOf(events, 'approval.answered')[0]?.decision.editedArgs).toEqual({ command: 42 });
  });

  it('writes the new text of an edit as the person changed it, and tells the model their new_string', async () => {
    const repo = fixtureRepo('failing-test');
    const { events, toldModel } = await runAnswering(
      repo,
      [
        {
          toolCalls: [
            {
              name: 'edit_file',
              arguments: { path: 'src/price.js', old_string: 'cents * percent;', new_string: 'cents * percent / 100;' },
            },
          ],
        },
        { text: 'done' },
      ],
      (event) => edited(event, { new_string: 'Math.round((cents * percent) / 100);' }),
    );
    expect(readFileSync(path.join(repo, 'src/price.js'), 'utf8')).toContain('return cents - Math.round((cents * percent) / 100);');
    expect(eventsOf(events, 'tool.finished')[0]?.outcome).toBe('ok');
    expect(toldModel?.split('\n')[0]).toBe(
      'The person changed new_string before allowing the edit of src/price.js. The edit used this new_string instead of yours: `Math.round((cents * percent) / 100);`.',
    );
  });

  it('writes a file with the content the person changed, and tells the model the difference as a diff', async () => {
    const repo = fixtureRepo('failing-test');
    const { toldModel } = await runAnswering(
      repo,
      [{ toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'one\ntwo\nthree\n' } }] }, { text: 'done' }],
      (event) => edited(event, { content: 'one\n2\nthree\n' }),
    );
    expect(readFileSync(path.join(repo, 'notes.txt'), 'utf8')).toBe('one\n2\nthree\n');
    expect(toldModel?.split('\n')[0]).toBe(
      'The person changed the content before allowing the write to notes.txt. What was written differs from yours by this diff (yours → theirs):',
    );
    expect(toldModel).toContain('```diff\n');
    expect(toldModel).toContain('\n-two\n+2\n');
  });
});
