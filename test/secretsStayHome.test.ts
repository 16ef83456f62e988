import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../src/main/core';
import type { ModelConfig } from '../src/main/model/config';
import { HeadlessBroker } from '../src/main/permissions/broker';
import { runUserGit } from '../src/main/workspace/git';
import { startScriptedModel } from './fixtures/scriptedModel';
import { closedAfterEach } from './support/loopLifetime';
import { tempDir } from './support/tempDirs';
import { allToolOutputs } from './support/toolResults';

// Secrets in Tether's environment never reach a command (sandboxed or not) or the model, and a
// repository's own git config cannot make the git Tether runs start a program.

const secrets: Record<string, string> = {
  TETHER_API_KEY: 'tether-key-0001',
  OPENAI_API_KEY: 'sk-test-abcdefghijklmnopqrstuvwxyz',
  GITHUB_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-0002',
  DEPLOY_URL: 'https://deploy:hunter2-0003@ci.example.com/hook',
  // Issue 31: secrets under names no list holds, each of which reached commands before.
  GH_PAT: 'plain-value-0005',
  STRIPE_SK: 'plain-value-0006',
  DB_PASS: 'plain-value-0007',
  MYAPP_PASS: 'plain-value-0008',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T0/B0/value-0009',
  REPORTS_CONNECTION: 'Server=db;User Id=sa;Password=value-0010;',
  INNOCENT: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ2YWx1ZS0wMDExIn0.c2lnbmF0dXJlLTAwMTE',
};
/** Harmless, but no work needs it: dark unless the person lights it. */
const harmless = { TETHER_TEST_HARMLESS: 'visible-0004' };

const loop = closedAfterEach();

beforeAll(() => Object.assign(process.env, secrets, harmless));
afterAll(() => {
  for (const name of [...Object.keys(secrets), ...Object.keys(harmless)]) delete process.env[name];
});

async function printenvThroughTheLoop(options: { settings?: object; sandboxOffBy?: string } = {}): Promise<string> {
  const dataDir = tempDir('tether-data-');
  if (options.settings) writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify(options.settings));
  const core = (loop.core = createCore({ dataDir }));
  const server = (loop.server = await startScriptedModel({
    turns: [{ toolCalls: [{ name: 'run_command', arguments: { command: 'printenv; echo END-OF-ENV' } }] }, { text: 'Done.' }],
  }));
  const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'scripted-model', api: 'responses' };
  const sessionId = core.createSession({ workspace: tempDir('tether-ws-'), task: 'show the environment', model, maxSteps: 3 });
  await core.run(sessionId, {
    model,
    mode: 'unleashed',
    broker: new HeadlessBroker({ unleashed: true }),
    signal: new AbortController().signal,
    ...(options.sandboxOffBy ? { sandboxOffBy: options.sandboxOffBy } : {}),
  });
  const told = allToolOutputs(server.requests[1]!).join('\n');
  expect(told).toContain('END-OF-ENV');
  return told;
}

describe('secrets stay home', () => {
  it('printenv in the sandbox shows the model no secret, and nothing work does not need', async () => {
    const told = await printenvThroughTheLoop();
    for (const value of Object.values(secrets)) expect(told).not.toContain(value);
    expect(told).not.toContain('visible-0004');
    expect(told).toMatch(/^HOME=/m);
    expect(told).not.toMatch(/^(GITHUB_TOKEN|TETHER_API_KEY|AWS_SECRET_ACCESS_KEY)=/m);
  });

  it('shows what the person lights, and a secret only when they name it exactly', async () => {
    const told = await printenvThroughTheLoop({ settings: { shellEnvironment: { include: ['TETHER_TEST_*', 'DB_PASS', '*_SK'] } } });
    expect(told).toContain('TETHER_TEST_HARMLESS=visible-0004');
    expect(told).toContain('DB_PASS=plain-value-0007');
    expect(told).not.toContain('plain-value-0006');
  });

  it('with the sandbox turned off too: the environment is filtered at its source', async () => {
    const told = await printenvThroughTheLoop({ sandboxOffBy: 'test' });
    for (const value of Object.values(secrets)) expect(told).not.toContain(value);
  });

  it('the person can open the door for one variable in their settings, and never for Tether’s own key', async () => {
    const told = await printenvThroughTheLoop({
      settings: { shellEnvironment: { include: ['GITHUB_TOKEN'], exclude: ['TETHER_TEST_*'] } },
    });
    expect(told).toContain(`GITHUB_TOKEN=${secrets.GITHUB_TOKEN}`);
    expect(told).not.toContain(secrets.TETHER_API_KEY);
    expect(told).not.toContain('visible-0004');
  });
});

describe("a repository's git config runs nothing through the git Tether runs", () => {
  it('ignores a planted core.fsmonitor (which plain git would run)', async () => {
    const repo = tempDir('tether-repo-');
    execFileSync('git', ['init', '-q', repo]);
    const marker = path.join(tempDir('tether-marker-'), 'ran');
    const monitor = path.join(repo, '.git', 'planted-monitor');
    writeFileSync(monitor, `#!/bin/sh\ntouch ${marker}\n`);
    chmodSync(monitor, 0o755);
    execFileSync('git', ['-C', repo, 'config', 'core.fsmonitor', monitor]);
    writeFileSync(path.join(repo, 'a.txt'), 'a');

    // Plain git runs it: the trap is real, so the check below can fail.
    execFileSync('git', ['-C', repo, 'status', '--porcelain']);
    expect(existsSync(marker)).toBe(true);
    execFileSync('rm', ['-f', marker]);

    await runUserGit(['status', '--porcelain'], { cwd: repo });
    await runUserGit(['diff', 'HEAD'], { cwd: repo, okExitCodes: [128] });
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses to enter a bare repository committed inside the project', async () => {
    const project = tempDir('tether-project-');
    const bare = path.join(project, 'history');
    execFileSync('git', ['init', '-q', '--bare', bare]);
    // Plain git enters it (and would read its config): the check below can fail.
    expect(execFileSync('git', ['rev-parse', '--git-dir'], { cwd: bare, encoding: 'utf8' }).trim()).toBe('.');
    const run = await runUserGit(['rev-parse', '--git-dir'], { cwd: bare, okExitCodes: [128] });
    expect(run.exitCode).toBe(128);
    expect(run.stderr).toMatch(/bare repository|safe\.bareRepository/i);
  });
});
