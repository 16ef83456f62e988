import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Turn } from './fixtures/scriptedModel';
import { assertCliBuilt, cliSetUp, closeCliModels, runCli } from './support/cli';
import { removeTempDirs, tempDir } from './support/tempDirs';

// Issue 31: Tether never runs the workspace's code outside the fence. The agent writes freely in the
// workspace (in auto mode without a question), so whatever Tether itself starts later, unsandboxed
// (git for its snapshots, an MCP server of the person's), must not be found there. Each case first
// shows the planted program running when started as Tether used to start it; then runs the built
// CLI as a person would, from a shell in the project, and checks it never ran.

beforeAll(() => assertCliBuilt());
afterEach(async () => {
  await closeCliModels();
  removeTempDirs();
});

const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
const writeOnce: Turn[] = [
  { toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi > planted-check.txt' } }] },
  { text: 'Done.' },
];

/** A program named `name` in `folder` that notes where it ran in `marker`, then does what the real one does. */
function plant(folder: string, name: string, marker: string, real: string): void {
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, name), `#!/bin/sh\necho "$0 $*" >> '${marker}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
}

describe('a program planted on the PATH inside the workspace', () => {
  const placements: Array<{ name: string; entry: (repo: string) => string; folder: (repo: string) => string }> = [
    {
      name: 'an absolute entry into the project (direnv’s layout node)',
      entry: (repo) => `${repo}/node_modules/.bin`,
      folder: (repo) => `${repo}/node_modules/.bin`,
    },
    { name: 'a relative entry (.)', entry: () => '.', folder: (repo) => repo },
    { name: 'an empty entry (a stray colon), which means the current folder', entry: () => '', folder: (repo) => repo },
  ];
  it('is never the bwrap that starts the sandbox, even on the command’s own PATH (a planted one would run the command unfenced)', async () => {
    const { env, flags, repo } = await cliSetUp(writeOnce);
    const marker = path.join(tempDir('tether-marker-'), 'ran');
    const realBwrap = execFileSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).trim();
    plant(repo, 'bwrap', marker, realBwrap);
    const result = await runCli(
      ['run', 'write a file', '--json', '--unleashed', ...flags],
      { ...env, PATH: `.:${process.env.PATH}` },
      { cwd: repo },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.events.find((stored) => stored.event.type === 'tool.finished')?.event).toMatchObject({ outcome: 'ok' });
    expect(fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : 'never ran').toBe('never ran');
  }, 60_000);

  for (const placement of placements) {
    it(`is never the git Tether runs for its snapshots: ${placement.name}`, async () => {
      const { env, flags, repo } = await cliSetUp(writeOnce);
      const marker = path.join(tempDir('tether-marker-'), 'ran');
      plant(placement.folder(repo), 'git', marker, realGit);
      const pathValue = `${placement.entry(repo)}:${process.env.PATH}`;
      // Control: started from the project with this PATH, as a program that looks git up would, the planted one runs.
      execFileSync('sh', ['-c', 'git --version'], { cwd: repo, env: { ...process.env, PATH: pathValue }, stdio: 'ignore' });
      expect(fs.existsSync(marker), 'the trap goes off when git is looked up on this PATH').toBe(true);
      fs.rmSync(marker);

      const result = await runCli(['run', 'write a file', '--json', '--unleashed', ...flags], { ...env, PATH: pathValue }, { cwd: repo });
      expect(result.code, result.stderr).toBe(0);
      expect(result.events.some((stored) => stored.event.type === 'checkpoint.created')).toBe(true);
      expect(fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : 'never ran').toBe('never ran');
    }, 60_000);
  }
});

describe("the person's own MCP servers", () => {
  const server = { command: 'python3', args: ['-m', 'notes_server'] };
  const plantModule = (repo: string, marker: string) =>
    fs.writeFileSync(path.join(repo, 'notes_server.py'), `open(${JSON.stringify(marker)}, 'a').write('imported from the workspace\\n')\n`);

  it('start in a folder of their own: `python -m` never imports a module the agent wrote in the workspace (--mcp-config)', async () => {
    const { env, flags, repo } = await cliSetUp([{ text: 'Done.' }]);
    const marker = path.join(tempDir('tether-marker-'), 'ran');
    plantModule(repo, marker);
    execFileSync(server.command, server.args, { cwd: repo, stdio: 'ignore' });
    expect(fs.existsSync(marker), 'python -m imports from the folder it starts in').toBe(true);
    fs.rmSync(marker);

    const config = path.join(tempDir('tether-mcp-'), 'mcp.json');
    fs.writeFileSync(config, JSON.stringify({ mcpServers: { notes: server } }));
    const result = await runCli(['run', 'take notes', '--json', '--mcp-config', config, ...flags], env, { cwd: repo });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/notes/);
    expect(fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : 'never imported').toBe('never imported');
  }, 60_000);

  it('in settings.json, started by a run launched from inside the project, do the same', async () => {
    const { env, flags, repo } = await cliSetUp([{ text: 'Done.' }]);
    const marker = path.join(tempDir('tether-marker-'), 'ran');
    plantModule(repo, marker);
    fs.writeFileSync(path.join(env.TETHER_HOME, 'settings.json'), JSON.stringify({ mcpServers: { notes: server } }));
    const result = await runCli(['run', 'take notes', '--json', ...flags], env, { cwd: repo });
    expect(result.code, result.stderr).toBe(0);
    expect(fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : 'never imported').toBe('never imported');
  }, 60_000);
});
