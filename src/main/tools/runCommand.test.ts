import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPtyTerminal } from '../terminal/pty';
import { ToolError } from './defineTool';
import { runCommand } from './runCommand';
import { makeToolContext, type TestToolContext } from '../../../test/support/toolContext';
import { alive } from '../../../test/support/processes';

const terminal = createPtyTerminal();
let root: string;
let ctx: TestToolContext;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-run-')));
  ctx = makeToolContext(root, { terminal });
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});
afterAll(() => terminal.dispose());

/** Runs the tool as the runner would: arguments through the schema first. */
function run(args: Record<string, unknown>, context: TestToolContext = ctx) {
  return runCommand.execute(runCommand.parameters.parse(args), context);
}

describe('run_command', () => {
  it('returns the output, then "exit code 0", with the facts in metadata', async () => {
    const result = await run({ command: 'echo hello && pwd' });
    expect(result.output).toBe(`hello\n${root}\n\nexit code 0`);
    expect(result.isError).toBe(false);
    expect(result.title).toBe('Ran: echo hello && pwd');
    expect(result.metadata).toMatchObject({ exitCode: 0, signal: null, timedOut: false, cwd: '.' });
    expect(typeof (result.metadata as { durationMs: unknown }).durationMs).toBe('number');
  });

  it('marks a non-zero exit as an error the model should read', async () => {
    const result = await run({ command: 'echo "expected 2, got 3" >&2; exit 1' });
    expect(result.isError).toBe(true);
    expect(result.output).toBe('expected 2, got 3\n\nexit code 1');
    expect(result.title).toBe('Failed (exit 1): echo "expected 2, got 3" >&2; exit 1');
  });

  it('explains a command that does not exist', async () => {
    const result = await run({ command: 'tether-no-such-tool --version' });
    expect(result.isError).toBe(true);
    expect(result.output).toContain('tether-no-such-tool: command not found');
    expect(result.output.endsWith('exit code 127 (command not found: check the name or install it)')).toBe(true);
  });

  it('says "(no output)" when the command printed nothing', async () => {
    const result = await run({ command: 'true' });
    expect(result.output).toBe('(no output)\n\nexit code 0');
  });

  it('does not wait for input', async () => {
    const result = await run({ command: 'read answer; cat; echo "answer:[$answer]"', timeout_ms: 5_000 });
    expect(result.output).toBe('answer:[]\n\nexit code 0');
  });

  it('runs in cwd, relative to the workspace', async () => {
    fs.mkdirSync(path.join(root, 'packages', 'web'), { recursive: true });
    const result = await run({ command: 'pwd', cwd: 'packages/web' });
    expect(result.output).toBe(`${path.join(root, 'packages', 'web')}\n\nexit code 0`);
    expect(result.metadata).toMatchObject({ cwd: 'packages/web' });
  });

  it('refuses a cwd outside the workspace, before running anything', async () => {
    const outside = path.join(path.dirname(root), `${path.basename(root)}-ran`);
    const command = `touch ${outside}`;
    await expect(run({ command, cwd: '..' })).rejects.toThrow(ToolError);
    await expect(run({ command, cwd: '/' })).rejects.toThrow(/outside the workspace/);
    fs.symlinkSync(os.tmpdir(), path.join(root, 'escape'));
    await expect(run({ command, cwd: 'escape' })).rejects.toThrow(/through a symbolic link/);
    expect(fs.existsSync(outside)).toBe(false);
  });

  it('refuses a cwd that does not exist or is a file', async () => {
    fs.writeFileSync(path.join(root, 'notes.txt'), 'x');
    await expect(run({ command: 'pwd', cwd: 'missing' })).rejects.toThrow(/"missing" does not exist in the workspace/);
    await expect(run({ command: 'pwd', cwd: 'notes.txt' })).rejects.toThrow(/"notes.txt" is a file, not a folder/);
  });

  it('refuses an empty command', async () => {
    await expect(run({ command: '   ' })).rejects.toThrow(ToolError);
    await expect(run({ command: '' })).rejects.toThrow(/"command" is empty/);
  });

  it('defaults timeout_ms to 120000 and refuses more than 600000', () => {
    expect(runCommand.parameters.parse({ command: 'ls' }).timeout_ms).toBe(120_000);
    expect(runCommand.parameters.safeParse({ command: 'ls', timeout_ms: 600_001 }).success).toBe(false);
    expect(runCommand.parameters.safeParse({ command: 'ls', timeout_ms: 600_000 }).success).toBe(true);
  });

  it('on timeout kills the command and tells the model how to avoid it', async () => {
    const pidFile = path.join(root, 'child.pid');
    const result = await run({ command: `echo waiting; sleep 100 & echo $! > ${pidFile}; wait`, timeout_ms: 500 });
    expect(result.isError).toBe(true);
    expect(result.output).toBe(
      'waiting\n\ntimed out after 0.5 s (the whole process group was killed); if it needs longer, pass a larger timeout_ms, or run it in a way that does not wait for input',
    );
    expect(result.title).toBe(`Timed out: echo waiting; sleep 100 & echo $! > ${pidFile}; wait`);
    expect(result.metadata).toMatchObject({ timedOut: true, exitCode: null });
    const child = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(alive(child)).toBe(false);
  });

  it('stops at once when the session is stopped', async () => {
    const running = run({ command: 'echo started; sleep 100' });
    while (!ctx.chunks.join('').includes('started')) await new Promise((resolve) => setTimeout(resolve, 10));
    const stoppedAt = Date.now();
    ctx.abort();
    const result = await running;
    expect(Date.now() - stoppedAt).toBeLessThan(3_000);
    expect(result.isError).toBe(true);
    expect(result.title).toBe('Stopped: echo started; sleep 100');
    expect(result.output).toMatch(/^started\n\nstopped before it finished/);
    expect(result.metadata).toMatchObject({ aborted: true, exitCode: null });
  });

  it('reports a command killed by a signal', async () => {
    const result = await run({ command: 'kill -KILL $$' });
    expect(result.isError).toBe(true);
    expect(result.output).toBe('(no output)\n\nkilled by SIGKILL');
    expect(result.metadata).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
  });

  it('names the signal behind an exit code above 128', async () => {
    const result = await run({ command: 'sleep 100 & kill -TERM $!; wait $!' });
    expect(result.output).toBe('(no output)\n\nexit code 143 (a process was killed by SIGTERM)');
  });

  it('streams the raw output to onOutput while it runs', async () => {
    const result = await run({ command: String.raw`printf '\033[32mgreen\033[0m\n'; echo second` });
    expect(ctx.chunks.join('')).toBe('\x1b[32mgreen\x1b[0m\r\nsecond\r\n');
    expect(result.output).toBe('green\nsecond\n\nexit code 0');
  });

  it('summarizes the call for the person approving it', () => {
    expect(runCommand.summarize(runCommand.parameters.parse({ command: 'npm test' }))).toBe('npm test');
    expect(runCommand.summarize(runCommand.parameters.parse({ command: 'npm test', cwd: 'web' }))).toBe('npm test  (in web)');
  });
});
