import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../src/main/core';
import { closeScriptedModels, runScripted } from './support/scriptedRun';
import { removeTempDirs, tempDir } from './support/tempDirs';

// A call's checkpoint records the files just before it, so what the call changed is told apart
// from what others changed: nothing of the call may run before that record is taken. And a call
// stopped before it starts never starts, though the tool (a file write) ignores its signal. A git
// first on PATH is slow to report the files (`git status` sleeps) and notes when each report ends.

let savedPath: string | undefined;
let statusLog: string;

beforeEach(() => {
  const bin = tempDir('tether-slow-git-');
  statusLog = path.join(bin, 'status-ends.log');
  const realGit = execFileSync('sh', ['-c', 'command -v git']).toString().trim();
  fs.writeFileSync(
    path.join(bin, 'git'),
    `#!/bin/sh\ncase " $* " in *" status "*) sleep 0.3; '${realGit}' "$@"; rc=$?; date +%s%N >> '${statusLog}'; exit $rc;; esac\nexec '${realGit}' "$@"\n`,
    { mode: 0o755 },
  );
  savedPath = process.env.PATH;
  process.env.PATH = `${bin}${path.delimiter}${savedPath ?? ''}`;
});

afterEach(async () => {
  process.env.PATH = savedPath;
  await closeScriptedModels();
  removeTempDirs();
});

const statusEnds = () => fs.readFileSync(statusLog, 'utf8').trim().split('\n').map(BigInt);

describe('a call and the record of the files before it', () => {
  it('starts a command only once its files are recorded', async () => {
    const core = createCore({ dataDir: tempDir('tether-data-') });
    const workspace = tempDir('tether-ws-');
    try {
      const { outcome } = await runScripted(core, workspace, [
        { toolCalls: [{ name: 'run_command', arguments: { command: 'date +%s%N > started.txt' } }] },
        { text: 'Done.' },
      ]);
      expect(outcome.status).toBe('done');
      // The run's start, the call's "before", then its "after".
      const [, before, after] = statusEnds();
      const started = BigInt(fs.readFileSync(path.join(workspace, 'started.txt'), 'utf8').trim());
      expect(started > before!).toBe(true);
      expect(started < after!).toBe(true);
    } finally {
      core.close();
    }
  });

  it('never starts a call stopped just before it starts: a file write, which ignores its signal, leaves no file', async () => {
    const core = createCore({ dataDir: tempDir('tether-data-') });
    const workspace = tempDir('tether-ws-');
    const stop = new AbortController();
    try {
      const { outcome, events } = await runScripted(
        core,
        workspace,
        [{ toolCalls: [{ name: 'write_file', arguments: { path: 'made.txt', content: 'x' } }] }, { text: 'Done.' }],
        {
          signal: stop.signal,
          onEvent: (stored) => {
            if (stored.event.type === 'tool.started') stop.abort();
          },
        },
      );
      expect(outcome.status).toBe('aborted');
      expect(events.flatMap(({ event }) => (event.type === 'tool.finished' ? [event.outcome] : []))).toEqual(['aborted']);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(fs.existsSync(path.join(workspace, 'made.txt'))).toBe(false);
    } finally {
      core.close();
    }
  });
});
