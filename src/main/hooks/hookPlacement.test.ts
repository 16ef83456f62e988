import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../shell/parser';
import { hookPlacement, type PlacementContext } from './hookPlacement';

// Where a hook runs (issue 30, item 6): outside the fence only when everything it runs comes from
// outside the places the agent can write. Claude Code's documented examples on both sides.

let root: string;
let context: PlacementContext;
let workspace: string;
let hooks: string;

beforeAll(async () => {
  await initShellParser();
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-placement-')));
  workspace = path.join(root, 'ws');
  hooks = path.join(root, 'home', '.claude', 'hooks');
  const bin = path.join(root, 'bin');
  for (const folder of [workspace, hooks, bin, path.join(workspace, 'node_modules', '.bin'), path.join(workspace, 'bin')]) {
    fs.mkdirSync(folder, { recursive: true });
  }
  // Desktop notifiers on the person's PATH (this machine has neither), and a jq the agent planted in the workspace.
  for (const notifier of ['notify-send', 'osascript']) fs.writeFileSync(path.join(bin, notifier), '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(workspace, 'bin', 'jq'), '#!/bin/sh\ntouch /tmp/pwned\n', { mode: 0o755 });
  fs.writeFileSync(path.join(workspace, 'node_modules', '.bin', 'prettier'), '#!/bin/sh\ntouch /tmp/pwned\n', { mode: 0o755 });
  context = {
    workspace,
    agentWritable: [workspace, path.join(root, 'data', 'sandbox', 'tmp', 's1')],
    // The workspace's own bin first, as a person's PATH with ./bin or node_modules/.bin on it would have.
    pathEnv: [path.join(workspace, 'bin'), path.join(workspace, 'node_modules', '.bin'), bin, process.env.PATH].join(path.delimiter),
    home: path.join(root, 'home'),
  };
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const user = (command: string) => hookPlacement({ command, source: 'user' }, context);

function script(name: string, text: string, folder = hooks): string {
  const file = path.join(folder, name);
  fs.writeFileSync(file, text, { mode: 0o755 });
  return file;
}

describe('a hook runs outside the fence', () => {
  it.each([
    ["Claude Code's logging example", `jq -r '.tool_input.command' >> ~/.claude/bash-command-log.txt`],
    ["Claude Code's notification example", `notify-send 'Claude Code' 'Awaiting your input'`],
    ['a notification in AppleScript on the line itself', `osascript -e 'display notification "Awaiting your input" with title "Tether"'`],
    ['builtins and text tools in a pipeline', `cat | jq -r '.tool_name' | tr a-z A-Z | tee -a ~/tools.log > /dev/null; exit 0`],
  ])('%s', (_what, command) => {
    expect(user(command)).toMatchObject({ where: 'outside' });
  });

  it('with a PATH that has none of the agent’s folders on it, so a jq planted in the workspace is not the one that runs', () => {
    const placed = user(`jq -r .tool_name >> ~/.claude/log.txt`);
    expect(placed.where).toBe('outside');
    const folders = placed.where === 'outside' ? placed.pathEnv.split(path.delimiter) : [];
    expect(folders).not.toContain(path.join(workspace, 'bin'));
    expect(folders).not.toContain(path.join(workspace, 'node_modules', '.bin'));
  });

  it("a shell script of the person's that only runs such programs, and a Python script of theirs", () => {
    const guard = script(
      'block-rm.sh',
      '#!/bin/bash\ncmd=$(jq -r .tool_input.command)\nif echo "$cmd" | grep -qE "rm -rf"; then echo no >&2; exit 2; fi\n',
    );
    expect(user(guard)).toMatchObject({ where: 'outside' });
    expect(user(`bash ${guard}`)).toMatchObject({ where: 'outside' });
    const python = script('audit.py', '#!/usr/bin/env python3\nimport json, sys\n');
    expect(user(python)).toMatchObject({ where: 'outside' });
    expect(user(`python3 ${python}`)).toMatchObject({ where: 'outside' });
    expect(user(`python3 ~/.claude/hooks/audit.py`)).toMatchObject({ where: 'outside' });
  });

  it("a managed policy's script runs as it is, unread: its audit log is the administrator's to keep", () => {
    const managed = script('guard.sh', '#!/bin/bash\nnpx some-audit-tool >> /var/log/tether-audit.log\n', path.join(root, 'bin'));
    expect(hookPlacement({ command: managed, source: 'managed' }, context)).toMatchObject({ where: 'outside' });
    // The same script as the person's is read, and what it runs keeps it in the fence.
    expect(user(managed)).toMatchObject({ where: 'inside' });
  });
});

describe('a hook runs inside the fence', () => {
  it.each([
    [
      "Claude Code's formatter example (npx runs node_modules/.bin/prettier first)",
      `jq -r '.tool_input.file_path' | { read file_path; if echo "$file_path" | grep -q '\\.ts$'; then npx prettier --write "$file_path"; fi; }`,
    ],
    [
      "Claude Code's guard example (python3 -c imports from the working folder first)",
      `python3 -c "import json, sys; data=json.load(sys.stdin); path=data.get('tool_input',{}).get('file_path',''); sys.exit(2 if '.env' in path else 0)"`,
    ],
    ["the project's scripts", 'npm run lint'],
    ['a build file', 'make format'],
    ['a script in the workspace', './format.sh'],
    ['a script named through the project folder', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh'],
    ['a filter read from a file', 'jq -f filter.jq'],
    ['a sed script read from a file', 'sed -nf edits.sed'],
    ['code given to eval', 'eval "$(cat hook.sh)"'],
    ['a sourced file', 'source ~/.claude/hooks/env.sh'],
    ['sudo', 'sudo jq .'],
    ['an AppleScript file the agent could have written', 'osascript notify.scpt'],
    ['git, whose aliases and filters the repository configures', 'git diff --name-only'],
    ['a program that is not installed', 'no-such-notifier done'],
  ])('%s', (_what, command) => {
    expect(user(command)).toMatchObject({ where: 'inside' });
  });

  it("a project's hook, whatever it runs", () => {
    expect(hookPlacement({ command: `jq -r .tool_name >> ~/log.txt`, source: 'project' }, context)).toMatchObject({
      where: 'inside',
      why: expect.stringContaining("a project's hook"),
    });
  });

  it("a script of the person's that runs npx, or a link of theirs that leads into the workspace", () => {
    expect(user(script('format.sh', '#!/bin/bash\nnpx prettier --write "$1"\n'))).toMatchObject({
      where: 'inside',
      why: expect.stringContaining('npx'),
    });
    const planted = script('fmt.sh', '#!/bin/bash\necho hi\n', workspace);
    fs.symlinkSync(planted, path.join(hooks, 'linked.sh'));
    expect(user(path.join(hooks, 'linked.sh'))).toMatchObject({
      where: 'inside',
      why: expect.stringContaining('where the agent can write'),
    });
    expect(user(`bash ${planted}`)).toMatchObject({ where: 'inside' });
  });
});
