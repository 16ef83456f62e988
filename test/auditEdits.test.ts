import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditCsv, auditJson } from '../src/shared/auditExport';
import { auditEntries } from '../src/shared/auditTrail';
import { createCore, type Core } from '../src/main/core';
import { auditRows } from '../src/main/store/auditRows';
import { auditCommand } from '../src/main/cli/auditCommand';
import { startScriptedModel, type ScriptedModel } from './fixtures/scriptedModel';
import { runAnsweredSession, type Asked, type Reply } from './support/answeredSession';
import { fixtureRepo, removeTempDirs, tempDir } from './support/tempDirs';
import { eventsOf } from './support/events';

// The audit records what ran, not what the model proposed (issue 29, item 2): after the person edits
// `echo hello > out.txt` to `echo edited > out.txt` and allows it, the history and both exports name
// the person's command, mark it edited, and keep the model's proposal beside it. Through the real
// core, engine and store.

let core: Core;
let dataDir: string;
let server: ScriptedModel | undefined;

beforeEach(() => {
  dataDir = tempDir('tether-data-');
  core = createCore({ dataDir });
});
afterEach(async () => {
  core.close();
  await server?.close();
  server = undefined;
  removeTempDirs();
});

function edited(asked: Asked, command: string): Reply {
  return { action: 'allow', scope: 'once', args: { ...(asked.args as Record<string, never>), command } };
}

async function session(command: string, answer: (asked: Asked) => Reply, options: { rulesFile?: string } = {}) {
  server = await startScriptedModel({ turns: [{ toolCalls: [{ name: 'run_command', arguments: { command } }] }, { text: 'done' }] });
  return runAnsweredSession(core, server.baseUrl, fixtureRepo('failing-test'), answer, options);
}

/** What `tether audit` prints for the session, as the person would run it. */
async function cli(sessionId: string, format: '--json' | '--csv' | undefined): Promise<string> {
  let out = '';
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string) => ((out += chunk), true)) as typeof process.stdout.write;
  try {
    await auditCommand(['--session', sessionId, '--data-dir', dataDir, ...(format ? [format] : [])]);
  } finally {
    process.stdout.write = write;
  }
  return out;
}

describe('the audit of an edited call', () => {
  it('names the command that ran, marks it edited, and keeps what the model proposed', async () => {
    const { sessionId, events } = await session('echo hello > out.txt', (asked) => edited(asked, 'echo edited > out.txt'));
    expect(eventsOf(events, 'approval.answered')[0]).toMatchObject({ editedSummary: 'echo edited > out.txt' });

    const rows = auditRows(core.store, { sessionId })!;
    const decision = rows.find((row) => row.callId !== null)!;
    expect(decision).toMatchObject({
      what: 'echo edited > out.txt',
      edited: true,
      proposed: 'echo hello > out.txt',
      action: 'allow',
      by: 'person',
      scope: 'once',
    });

    // Both exports, from the window and from the command, carry it, and are the same bytes.
    const json = await cli(sessionId, '--json');
    expect(json).toBe(auditJson(rows));
    expect(JSON.parse(json)[0]).toMatchObject({ what: 'echo edited > out.txt', edited: true, proposed: 'echo hello > out.txt' });
    const csv = await cli(sessionId, '--csv');
    expect(csv).toBe(auditCsv(rows));
    const [header, record] = csv.split('\r\n');
    expect(header!.split(',').slice(-2)).toEqual(['edited', 'proposed']);
    expect(record).toContain(',echo edited > out.txt,allow,person,');
    expect(record!.endsWith(',yes,echo hello > out.txt')).toBe(true);
    expect(await cli(sessionId, undefined)).toContain(
      'run_command: echo edited > out.txt (edited by the person; proposed: echo hello > out.txt)',
    );
  });

  it('says nothing of an edit when the person allowed the model’s own call', async () => {
    const { sessionId } = await session('echo hello > out.txt', () => ({ action: 'allow', scope: 'once' }));
    const [row] = auditRows(core.store, { sessionId })!.filter((entry) => entry.callId !== null);
    expect(row).toMatchObject({ what: 'echo hello > out.txt' });
    expect(row?.edited).toBeUndefined();
    expect(row?.proposed).toBeUndefined();
    expect(auditCsv([row!]).split('\r\n')[1]!.endsWith(',,')).toBe(true);
  });

  it('lists the deny rule that then refused the person’s version, after their allow', async () => {
    const rulesFile = path.join(tempDir('tether-rules-'), 'rules.json');
    writeFileSync(rulesFile, JSON.stringify({ deny: ['run_command(rm *)'] }));
    const { sessionId } = await session('echo hello > out.txt', (asked) => edited(asked, 'rm README.md'), { rulesFile });
    const rows = auditRows(core.store, { sessionId })!.filter((entry) => entry.callId !== null);
    expect(rows.map((row) => [row.action, row.by, row.what, row.rule ?? null])).toEqual([
      ['allow', 'person', 'rm README.md', null],
      ['deny', 'rules', 'Denied: rm README.md', 'run_command(rm *)'],
    ]);
    expect(rows[0]).toMatchObject({ edited: true, proposed: 'echo hello > out.txt' });
    expect(rows[1]?.reason).toMatch(/^run_command\(rm \*\) denies/);
  });

  it('reads a log written before the edit’s summary was kept: edited, with the proposal as what', () => {
    const at = Date.UTC(2026, 0, 1);
    const entries = auditEntries([
      {
        sessionId: 's',
        seq: 1,
        at,
        event: {
          type: 'approval.asked',
          approvalId: 'a',
          callId: 'c',
          tool: 'run_command',
          risk: 'exec',
          summary: 'echo hello > out.txt',
          args: { command: 'echo hello > out.txt' },
        },
      },
      {
        sessionId: 's',
        seq: 2,
        at,
        event: {
          type: 'approval.answered',
          approvalId: 'a',
          callId: 'c',
          decision: { action: 'allow', scope: 'once', by: 'person', editedArgs: { command: 'echo edited > out.txt' } },
        },
      },
    ]);
    expect(entries).toEqual([expect.objectContaining({ what: 'echo hello > out.txt', edited: true })]);
    expect(entries[0]?.proposed).toBeUndefined();
  });
});
