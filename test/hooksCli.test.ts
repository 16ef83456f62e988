import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { startScriptedModel, type ScriptedModel } from './fixtures/scriptedModel';
import { assertCliBuilt, runCli } from './support/cli';
import { removeTempDirs, tempDir } from './support/tempDirs';

// `tether run` with no one to ask: a PreToolUse hook may vouch for a command (which then runs), and
// the run's output says what each hook did.

let server: ScriptedModel | undefined;
beforeAll(() => assertCliBuilt());
afterEach(async () => {
  await server?.close();
  server = undefined;
  removeTempDirs();
});

it('a headless run lets a hook vouch for a command; what is not vouched for is denied; the output names each hook', async () => {
  server = await startScriptedModel({
    turns: [
      {
        toolCalls: [
          { name: 'run_command', arguments: { command: 'touch vouched.txt' } },
          { name: 'run_command', arguments: { command: 'touch unvouched.txt' } },
        ],
      },
      { text: 'Finished.' },
    ],
  });
  const repo = tempDir('tether-hooks-cli-');
  const home = tempDir('tether-home-');
  const vouch = `jq -e '.tool_input.command == "touch vouched.txt"' >/dev/null && echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"on the list"}}'; exit 0`;
  writeFileSync(
    path.join(home, 'settings.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: vouch }] }] } }),
  );
  const result = await runCli(['run', 'make files', '--cwd', repo, '--base-url', server.baseUrl, '--model', 'scripted-model'], {
    TETHER_HOME: home,
  });
  expect(result.code).toBe(0);
  expect(existsSync(path.join(repo, 'vouched.txt'))).toBe(true);
  expect(existsSync(path.join(repo, 'unvouched.txt'))).toBe(false);
  expect(result.stderr).toContain('PreToolUse hook (user)');
  expect(result.stderr).toContain(': allow (on the list)');
});
