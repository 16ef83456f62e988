import type { RemoteRunsView } from '../../src/shared/remoteRuns';
import type { Handlers, Input, McpServerView, Output, RequestName, SessionSummary } from '../../src/shared/contract';
import type { StoredEvent } from '../../src/shared/events';
import type { SandboxView } from '../../src/shared/sandbox';
import { initialSessionState } from '../../src/shared/session';

// One valid input and one valid output per request. The mapped types make a request added to the
// contract without a sample a compile error, so the host tests keep covering every request.

const summary: SessionSummary = {
  id: 's1',
  projectId: 'p1',
  title: 'Fix the failing test',
  workspace: '/work/repo',
  model: 'scripted-model',
  status: 'working',
  pendingApprovals: 0,
  mode: 'ask',
  updatedAt: 1_700_000_000_000,
  lastSeq: 3,
  usage: { inputTokens: 1200, outputTokens: 80, cachedInputTokens: 1000, reasoningTokens: 0 },
  costUsd: 0.0031,
};

export const storedEvent: StoredEvent = {
  sessionId: 's1',
  seq: 1,
  at: 1_700_000_000_000,
  event: { type: 'user.messaged', text: 'fix the failing test' },
};

export const sampleInputs: { [R in RequestName]: Input<R> } = {
  'app:info': {},
  'layout:get': {},
  'layout:save': { sidebarWidth: 240, reviewWidth: 520, terminalHeight: 200, reviewCollapsed: false },
  'app:update': {},
  'app:restartToUpdate': {},
  'projects:list': {},
  'projects:open': { path: '/work/repo' },
  'projects:trust': { projectId: 'p1', trusted: true },
  'projects:setDefaultMode': { projectId: 'p1', mode: 'auto' },
  'sessions:list': { projectId: 'p1' },
  'session:start': { workspace: '/work/repo', task: 'fix the failing test' },
  'session:open': { sessionId: 's1' },
  'session:page': { sessionId: 's1', beforeItem: 200, limit: 100 },
  'session:events': { sessionId: 's1', afterSeq: 0 },
  'session:send': { sessionId: 's1', text: 'and run the tests' },
  'session:stop': { sessionId: 's1' },
  'session:retry': { sessionId: 's1' },
  'session:rename': { sessionId: 's1', title: 'Auth fix' },
  'session:delete': { sessionId: 's1' },
  'session:setMode': { sessionId: 's1', mode: 'auto-edit' },
  'session:compact': { sessionId: 's1' },
  'approval:answer': { approvalId: 'a1', action: 'allow', scope: 'once' },
  'approval:preview': { approvalId: 'a1', args: { command: 'rm -rf src && echo edited > out.txt' } },
  'approvals:pending': {},
  'diff:files': { sessionId: 's1' },
  'diff:file': { sessionId: 's1', path: 'src/a.ts' },
  'diff:revert': { sessionId: 's1', path: 'src/a.ts', scope: 'turn', hunk: { index: 0, fingerprint: 'f00d' } },
  'diff:undoRevert': { sessionId: 's1', undoId: 'u1' },
  'diff:accept': { sessionId: 's1', path: 'src/a.ts' },
  'diff:undoAccept': { sessionId: 's1', acceptSeq: 7 },
  'workspace:readFile': { sessionId: 's1', path: 'src/a.ts:12' },
  'workspace:files': { sessionId: 's1', query: 'src/a' },
  'folders:complete': { typed: '~/code/te' },
  'folders:pick': {},
  'worktree:setting': { projectId: 'p1' },
  'worktree:configure': { projectId: 'p1', enabled: true },
  'worktree:finish': { sessionId: 's1', action: 'squash', message: 'Fix the failing test' },
  'worktree:move': { sessionId: 's1' },
  'settings:get': {},
  'settings:update': { model: 'gpt-5' },
  'model:test': { baseUrl: 'http://127.0.0.1:11434/v1', api: 'chat' },
  'model:findLocal': {},
  'rules:list': {},
  'rules:revoke': { ruleId: 'r1' },
  'settingsRules:list': {},
  'settingsRules:add': { action: 'deny', rule: 'run_command(rm *)' },
  'settingsRules:remove': { action: 'deny', rule: 'run_command(rm *)' },
  'audit:list': { sessionId: 's1', since: 1_700_000_000_000, tool: 'run_command', action: 'allow', by: 'person' },
  'notification:show': {
    kind: 'waiting',
    title: 'Waiting for you: Fix the build',
    body: 'run_command: npm publish',
    tag: 'tether-waiting-a1',
    sessionId: 's1',
    approvalId: 'a1',
  },
  'mcp:servers': { projectId: 'p1' },
  'mcp:restart': { name: 'github' },
  'session:rewindPreview': { sessionId: 's1', toSeq: 2 },
  'session:rewind': { sessionId: 's1', toSeq: 2, restore: 'both' },
  'session:undoRewind': { sessionId: 's1' },
  'sandbox:get': { projectId: 'p1' },
  'sandbox:update': {
    projectId: 'p1',
    fence: { allowWrite: [], denyWrite: [], denyRead: ['~/.kube'], allowedDomains: ['registry.npmjs.org'] },
  },
  'remote:get': {},
  'remote:configure': { enabled: true, listen: { host: '127.0.0.1', port: 7717 } },
  'remote:createToken': { name: 'ci-1' },
  'remote:revokeToken': { name: 'ci-1' },
  'remote:revokeRule': { ruleId: 'r1' },
  'session:sandboxTemp': { sessionId: 's1' },
  'session:openSandboxTemp': { sessionId: 's1' },
};

const sandboxView: SandboxView = {
  available: true,
  unavailable: 'ask',
  builtIn: { allowWrite: ['/work/repo'], denyWrite: ['/work/repo/.tether'], denyRead: ['/home/me/.ssh'] },
  fence: { allowWrite: [], denyWrite: [], denyRead: [], allowedDomains: ['registry.npmjs.org'], packageRegistries: false },
};

const remoteRunsView: RemoteRunsView = {
  enabled: true,
  listen: { host: '127.0.0.1', port: 7717 },
  state: 'listening',
  url: 'ws://127.0.0.1:7717',
  tokens: [{ name: 'ci-1', createdAt: 1, lastUsedAt: null }],
  rules: [{ id: 'r1', runner: 'ci-1', repository: 'https://example.com/repo.git', pattern: 'run_command(npm test *)', createdAt: 2 }],
};

const mcpServer: McpServerView = {
  id: 'user:github',
  name: 'github',
  source: 'user',
  projectId: null,
  file: '/data/settings.json',
  transport: 'stdio',
  target: 'npx -y @modelcontextprotocol/server-github',
  state: 'ready',
  restarts: 0,
  tools: [{ name: 'create_issue', modelName: 'mcp__github__create_issue', description: 'Create an issue.' }],
  stderr: ['GitHub MCP Server running on stdio'],
};

const settings = {
  baseUrl: 'http://127.0.0.1:11434/v1',
  api: 'responses',
  model: 'scripted-model',
  hasApiKey: false,
  maxSteps: 50,
  mode: 'ask',
  outsideContent: 'ask',
  modelConfigured: true,
  keyKept: 'os-keychain',
} as const;

export const sampleOutputs: { [R in RequestName]: Output<R> } = {
  'app:info': { version: '0.1.0', host: 'serve', dataDir: '/data' },
  'layout:get': { sidebarWidth: 240, terminalOpen: false },
  'layout:save': undefined,
  'app:update': { state: 'ready', version: '0.2.0', blockedBy: '1 session is working' },
  'app:restartToUpdate': { restarted: false, reason: 'Not restarting: 1 session is working.' },
  'projects:list': [{ id: 'p1', path: '/work/repo', name: 'repo', trusted: false, defaultMode: null }],
  'projects:open': { id: 'p1', path: '/work/repo', name: 'repo', trusted: false, defaultMode: null },
  'projects:trust': { id: 'p1', path: '/work/repo', name: 'repo', trusted: true, defaultMode: 'ask' },
  'projects:setDefaultMode': { id: 'p1', path: '/work/repo', name: 'repo', trusted: false, defaultMode: 'auto' },
  'sessions:list': [summary],
  'session:start': { sessionId: 's1' },
  'session:open': {
    state: {
      ...initialSessionState,
      status: 'working',
      items: [{ type: 'user', text: 'fix the failing test' }],
      itemsFrom: 200,
      lastSeq: 901,
    },
    startedAt: { c1: 1_700_000_000_000 },
    askedAt: {},
  },
  'session:page': {
    fromItem: 100,
    items: [{ type: 'tool_call', callId: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}' }],
    toolCalls: { c1: { callId: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}', status: 'ok', output: 'x' } },
    approvals: {},
    rewindPoints: [],
  },
  'session:events': [storedEvent],
  'session:send': undefined,
  'session:stop': undefined,
  'session:retry': undefined,
  'session:rename': { ...summary, title: 'Auth fix' },
  'session:delete': undefined,
  'session:setMode': { ...summary, mode: 'auto', autoWorksAsAsk: 'The command sandbox needs bubblewrap (bwrap), which is not installed.' },
  'session:compact': { when: 'next_turn' },
  'approval:answer': undefined,
  'approval:preview': {
    action: 'ask',
    reason: '`rm -rf src && echo edited > out.txt` runs a program that no rule allows.',
    commands: [
      ['rm', '-rf', 'src'],
      ['echo', 'edited'],
    ],
    parts: [
      { words: ['rm', '-rf', 'src'], risk: 'deletes', effects: [{ risk: 'deletes', text: 'rm deletes src' }] },
      { words: ['echo', 'edited'], risk: 'writes', effects: [{ risk: 'writes', text: 'echo writes out.txt' }] },
    ],
    allowAlways: { rule: 'run_command(rm -rf src && echo edited > out.txt)' },
  },
  'approvals:pending': [{ approvalId: 'a1', sessionId: 's1', sessionTitle: 'Fix', askedAt: 1 }],
  'diff:files': [{ path: 'src/a.ts', status: 'modified', additions: 1, deletions: 1, binary: false }],
  'diff:file': {
    path: 'src/a.ts',
    status: 'modified',
    before: 'a',
    after: 'b',
    language: 'typescript',
    binary: false,
    hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, fingerprint: 'f00d' }],
  },
  'diff:revert': { path: 'src/a.ts', note: 'src/a.ts line 5 (hunk)', undoId: 'u1' },
  'diff:undoRevert': { path: 'src/a.ts', note: 'src/a.ts line 5 (hunk)' },
  'diff:accept': { note: 'src/a.ts', acceptSeq: 7 },
  'diff:undoAccept': { note: 'src/a.ts' },
  'workspace:readFile': { status: 'shown', path: 'src/a.ts', text: 'const a = 1;\n', language: 'typescript', size: 13 },
  'workspace:files': { files: ['src/a.ts', 'src/app.tsx'], truncated: false },
  'folders:complete': { folders: ['~/code/tether/'], truncated: false },
  'folders:pick': { path: '/work/repo' },
  'worktree:setting': { projectId: 'p1', enabled: false, unavailable: '/work/repo is not in a git repository.' },
  'worktree:configure': { projectId: 'p1', enabled: true },
  'worktree:finish': { action: 'squash', commit: 'abc123', into: 'main' },
  'worktree:move': { branch: 'tether/abcd1234', path: '/data/worktrees/p1/abcd1234', carried: ['src/a.ts'], leftBehind: [] },
  'settings:get': { ...settings, keyVariables: [] },
  'settings:update': { ...settings, keyVariables: ['GLOO_API_KEY'], storedKeyFor: 'https://api.openai.com', model: 'gpt-5' },
  'model:test': { ok: true, url: 'http://127.0.0.1:11434/v1/models', models: [{ id: 'qwen3:8b', tools: 'yes' }], sentKey: false },
  'model:findLocal': [{ id: 'ollama', name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', models: ['qwen3:8b'] }],
  'rules:list': [
    { id: 'r1', pattern: 'run_command(npm test *)', action: 'allow', scope: 'project', projectId: 'p1', sessionId: null, createdAt: 1 },
  ],
  'rules:revoke': undefined,
  'settingsRules:list': { file: '/home/me/.tether/settings.json', allow: [], ask: ['fetch_url'], deny: ['run_command(rm *)'] },
  'settingsRules:add': { file: '/home/me/.tether/settings.json', allow: [], ask: ['fetch_url'], deny: ['run_command(rm *)'] },
  'settingsRules:remove': { file: '/home/me/.tether/settings.json', allow: [], ask: ['fetch_url'], deny: ['run_command(rm *)'] },
  'notification:show': { shown: false },
  'audit:list': [
    {
      at: 1_700_000_000_000,
      sessionId: 's1',
      sessionTitle: 'Fix the tests',
      seq: 4,
      callId: 'c1',
      tool: 'run_command',
      what: 'npm test',
      action: 'allow',
      by: 'person',
      rule: 'run_command(npm test *)',
      scope: 'project',
      project: '/work/repo',
    },
  ],
  'mcp:servers': [mcpServer],
  'mcp:restart': mcpServer,
  'session:rewindPreview': {
    toSeq: 2,
    files: [{ path: 'src/a.ts', status: 'modified', additions: 1, deletions: 1, binary: false }],
    skipped: [{ path: 'data/big.bin', reason: 'too_large', size: 3_000_000 }],
    warnings: [{ callId: 'c1', tool: 'run_command', summary: 'git push', why: 'may reach the network (git push)' }],
    conversationItems: 4,
    working: false,
    unasked: [{ callId: 'c2', command: 'npm ci' }],
  },
  'session:rewind': { seq: 9, files: ['src/a.ts'], warnings: [] },
  'session:undoRewind': { seq: 10, files: ['src/a.ts'], warnings: [] },
  'sandbox:get': sandboxView,
  'sandbox:update': sandboxView,
  'remote:get': remoteRunsView,
  'remote:configure': remoteRunsView,
  'remote:createToken': { name: 'ci-1', token: 'tether-runner.abcdefghijk.0123456789012345678901234567890123456789012' },
  'remote:revokeToken': undefined,
  'remote:revokeRule': undefined,
  'session:sandboxTemp': { path: '/data/sandbox/tmp/s1', exists: true, sandboxed: true },
  'session:openSandboxTemp': { opened: false },
};

export interface RecordingHandlers {
  handlers: Handlers;
  /** Every call a handler received, in order, with the input as the handler saw it. */
  calls: Array<{ name: RequestName; input: unknown }>;
}

/** Handlers that answer each request with its sample output and record what they were given. */
export function recordingHandlers(overrides: Partial<Handlers> = {}): RecordingHandlers {
  const calls: RecordingHandlers['calls'] = [];
  const handlers = Object.fromEntries(
    (Object.keys(sampleOutputs) as RequestName[]).map((name) => [
      name,
      async (input: unknown) => {
        calls.push({ name, input });
        const override = overrides[name] as ((input: unknown) => Promise<unknown>) | undefined;
        return override ? override(input) : sampleOutputs[name];
      },
    ]),
  ) as unknown as Handlers;
  return { handlers, calls };
}
