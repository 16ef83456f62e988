import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { explain } from '../src/main/cli/permissionsCommand';
import { sessionRuleSet } from '../src/main/permissions/sessionRules';
import { initShellParser } from '../src/main/shell/parser';
import { removeTempDirs, tempDir } from './support/tempDirs';

// Issue 31, finding 1, as `tether permissions explain` answers for a new session: a managed policy's
// or the person's `deny read_file(…)` holds for a file a read-only command reads through an option
// (`date -f`, `git blame --contents=`, `xargs -a`, sed's r), in ask mode and in unleashed mode alike.

beforeAll(() => initShellParser());
afterEach(() => {
  vi.unstubAllEnvs();
  removeTempDirs();
});

/** A person's data folder (with `settings`, if given) and a git repository to explain calls in. */
function folders(settings?: object): { dataDir: string; workspace: string } {
  const dataDir = tempDir();
  if (settings) writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify(settings));
  const workspace = tempDir();
  execFileSync('git', ['init', '-q', workspace]);
  writeFileSync(path.join(workspace, 'README.md'), '# x\n');
  return { dataDir, workspace };
}

function explainLine(source: { dataDir: string; workspace: string }, command: string, mode: 'ask' | 'unleashed') {
  const { rules, projectTrusted } = sessionRuleSet(source);
  return explain({ tool: 'run_command', args: { command }, mode, tainted: false, workspaceRoot: source.workspace, rules, projectTrusted });
}

const SECRET = '/etc/hostname';
const LINES = [
  `date -f ${SECRET}`,
  `date --file=${SECRET} +%s`,
  `date --fi ${SECRET}`,
  `git blame --contents=${SECRET} README.md`,
  `git blame -S${SECRET} README.md`,
  `sort --random-source=${SECRET} README.md`,
  `jq -n --rawfile x ${SECRET} '$x'`,
  `xargs -a ${SECRET} echo`,
  `sed 'r ${SECRET}' README.md`,
  `file -m README.md:${SECRET} README.md`,
  `tree --fromfile ${SECRET}`,
];

describe('a deny rule on reading a file holds when a command reads it through an option', () => {
  it.each(LINES)('`%s` is denied by the managed policy, in ask and in unleashed mode', (line) => {
    const policy = path.join(tempDir(), 'managed-settings.json');
    writeFileSync(policy, JSON.stringify({ permissions: { deny: [`read_file(/${SECRET})`] } }));
    vi.stubEnv('TETHER_MANAGED_SETTINGS', policy);
    const source = folders({ permissions: { allow: ['run_command'] } });
    for (const mode of ['ask', 'unleashed'] as const) {
      expect(explainLine(source, line, mode), mode).toMatchObject({ decision: 'deny', rule: `read_file(/${SECRET})`, source: 'managed' });
    }
  });

  it.each(LINES)('`%s` is denied by the person’s own deny rule', (line) => {
    vi.stubEnv('TETHER_MANAGED_SETTINGS', '');
    const source = folders({ permissions: { deny: [`read_file(/${SECRET})`] } });
    expect(explainLine(source, line, 'unleashed')).toMatchObject({ decision: 'deny', rule: `read_file(/${SECRET})`, source: 'user' });
  });

  it('leaves the same commands on workspace files running unasked', () => {
    vi.stubEnv('TETHER_MANAGED_SETTINGS', '');
    const source = folders();
    for (const line of ['date -f README.md', 'git blame --contents=README.md README.md', 'date +%s', 'git blame README.md']) {
      expect(explainLine(source, line, 'ask'), line).toMatchObject({ decision: 'allow' });
    }
  });
});
