import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent, StoredEvent } from '../src/shared/events';
import type { Decision, PermissionMode } from '../src/shared/permissions';
import { createCore, type Core } from '../src/main/core';
import type { ModelConfig } from '../src/main/model/config';
import { HeadlessBroker, type ApprovalRequest, type Broker } from '../src/main/permissions/broker';
import { runtimeStopped } from '../src/main/sandbox/sandboxRuntime';
import { startScriptedModel, type ScriptedModel, type ScriptedToolCall } from './fixtures/scriptedModel';
import { startPageServer } from './support/pageServer';
import { removeTempDirs, tempDir } from './support/tempDirs';
import { toolOutputs } from './support/toolResults';

// Issue 17, item 2, through the real loop: real bubblewrap and the real proxy. A sandboxed python3
// script reaches a page server on this machine (127.0.0.1) through the proxy the sandbox gives it;
// the proxy asks the session about the host, and the answer decides whether the page gets through.

const PAGE = '<html><body><p>secret release notes 41f2</p></body></html>';
const FETCH_PY = `
import os, sys, urllib.request, concurrent.futures
url, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1
proxy = os.environ.get('http_proxy') or os.environ.get('HTTP_PROXY')
# The sandbox's NO_PROXY lists 127.0.0.1 (inside, nothing listens there): this page is on the host, behind the proxy.
for name in ('no_proxy', 'NO_PROXY'):
    os.environ.pop(name, None)
opener = urllib.request.build_opener(urllib.request.ProxyHandler({'http': proxy, 'https': proxy}))
def fetch(_):
    try:
        return opener.open(url, timeout=float(os.environ.get('FETCH_TIMEOUT', '60'))).read().decode()
    except Exception as error:
        return 'REFUSED ' + str(error)
with concurrent.futures.ThreadPoolExecutor(max_workers=min(count, 50)) as pool:
    results = list(pool.map(fetch, range(count)))
refused = [r for r in results if r.startswith('REFUSED')]
print(results[0] if count == 1 else f'{count - len(refused)} fetched, {len(refused)} refused')
sys.exit(1 if refused else 0)
`;

let core: Core | undefined;
let server: ScriptedModel | undefined;
let page: Awaited<ReturnType<typeof startPageServer>> | undefined;

afterEach(async () => {
  core?.close();
  core = undefined;
  await server?.close();
  server = undefined;
  await page?.close();
  page = undefined;
  await runtimeStopped();
  removeTempDirs();
});

/** A person: allows the commands, and answers the network questions as told (after a delay, or never). */
class Person implements Broker {
  readonly asked: ApprovalRequest[] = [];
  constructor(private readonly network: (request: ApprovalRequest) => Decision | Promise<Decision> | 'never') {}
  async decide(request: ApprovalRequest, signal: AbortSignal): Promise<Decision> {
    this.asked.push(request);
    if (!request.network) return { action: 'allow', scope: 'once', by: 'person' };
    const answer = this.network(request);
    if (answer === 'never') {
      return new Promise((_resolve, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    }
    return answer;
  }
  networkQuestions(): ApprovalRequest[] {
    return this.asked.filter((request) => request.network);
  }
}

const allowOnce: Decision = { action: 'allow', scope: 'once', by: 'person' };
const allowAlways = (rule?: string): Decision => ({ action: 'allow', scope: 'project', by: 'person', ...(rule ? { rule } : {}) });
const deny: Decision = { action: 'deny', scope: 'once', by: 'person', message: 'not that server' };

function fetchCall(options: { count?: number; timeoutMs?: number; prefix?: string } = {}): ScriptedToolCall {
  return {
    name: 'run_command',
    arguments: {
      command: `${options.prefix ?? ''}python3 fetch.py ${page!.url}${options.count ? ` ${options.count}` : ''}`,
      ...(options.timeoutMs ? { timeout_ms: options.timeoutMs } : {}),
    },
  };
}

async function run(options: {
  broker: Broker;
  calls: ScriptedToolCall[];
  mode?: PermissionMode;
  signal?: AbortSignal;
  onEvent?(stored: StoredEvent): void;
  dataDir?: string;
  workspace?: string;
  allowHosts?: string[];
}) {
  const dataDir = options.dataDir ?? tempDir('tether-data-');
  const workspace = options.workspace ?? tempDir('tether-ws-');
  writeFileSync(path.join(workspace, 'fetch.py'), FETCH_PY);
  core ??= createCore({ dataDir });
  server = await startScriptedModel({ turns: [...options.calls.map((call) => ({ toolCalls: [call] })), { text: 'Done.' }] });
  const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'scripted-model', api: 'responses' };
  const sessionId = core.createSession({ workspace, task: 'read the release notes', model, maxSteps: 10 });
  const started = performance.now();
  const outcome = await core.run(sessionId, {
    model,
    broker: options.broker,
    signal: options.signal ?? new AbortController().signal,
    ...(options.mode ? { mode: options.mode } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}),
  });
  const events = core.store.events.list(sessionId).map((stored) => stored.event);
  const last = server.requests.at(-1);
  const told = last ? [...toolOutputs(last).values()] : [];
  return { outcome, events, told, dataDir, workspace, sessionId, ms: performance.now() - started };
}

type Asked = Extract<SessionEvent, { type: 'approval.asked' }>;
type Answered = Extract<SessionEvent, { type: 'approval.answered' }>;
const networkAsked = (events: SessionEvent[]): Asked[] =>
  events.filter((event): event is Asked => event.type === 'approval.asked' && event.sandbox?.kind === 'network');
const answerTo = (events: SessionEvent[], approvalId: string): Answered | undefined =>
  events.find((event): event is Answered => event.type === 'approval.answered' && event.approvalId === approvalId);
const finished = (events: SessionEvent[]) =>
  events.filter((event): event is Extract<SessionEvent, { type: 'tool.finished' }> => event.type === 'tool.finished');

describe('loopback goes through the same question as any host (issue 30)', () => {
  it('curl to localhost, 127.0.0.1 and ::1, and Python’s urllib, whatever the person’s NO_PROXY says', async () => {
    page = await startPageServer(PAGE);
    const port = Number(new URL(page.url).port);
    const person = new Person(() => allowOnce);
    const saved = { NO_PROXY: process.env.NO_PROXY, no_proxy: process.env.no_proxy };
    process.env.NO_PROXY = 'localhost,127.0.0.1,::1';
    process.env.no_proxy = 'localhost,127.0.0.1,::1';
    try {
      const { events, told } = await run({
        broker: person,
        mode: 'auto',
        calls: [
          { name: 'run_command', arguments: { command: `curl -sS -m 30 http://localhost:${port}/notes` } },
          {
            name: 'run_command',
            arguments: {
              command: `python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:${port}/notes', timeout=30).read().decode())"`,
            },
          },
          {
            name: 'run_command',
            arguments: { command: `curl -sS -m 30 -o /dev/null http://[::1]:${port}/notes; echo "NO_PROXY=[$NO_PROXY]"` },
          },
        ],
      });
      expect(networkAsked(events).map((event) => `${event.sandbox?.host}:${event.sandbox?.port}`)).toEqual([
        `localhost:${port}`,
        `127.0.0.1:${port}`,
        `::1:${port}`,
      ]);
      expect(networkAsked(events)[0]?.reason).toContain(`wants to reach localhost:${port}`);
      expect(told[0]).toContain('secret release notes 41f2');
      expect(told[1]).toContain('secret release notes 41f2');
      expect(told[2]).toContain('NO_PROXY=[]');
      expect(page.hits()).toBe(2);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});

describe('a live network question from inside the sandbox', () => {
  it('asks about the host, and once allowed the script gets the page and the model reads it', async () => {
    page = await startPageServer(PAGE);
    const port = Number(new URL(page.url).port);
    const person = new Person(() => allowOnce);
    const { events, told } = await run({ broker: person, calls: [fetchCall()] });

    const [question] = networkAsked(events);
    expect(question).toMatchObject({
      tool: 'run_command',
      risk: 'egress',
      sandbox: {
        kind: 'network',
        host: '127.0.0.1',
        port,
        followUp: true,
        reason: expect.stringContaining(`wants to reach 127.0.0.1:${port}`),
      },
      allowAlways: { rule: `127.0.0.1:${port}` },
    });
    expect(answerTo(events, question!.approvalId)?.decision).toMatchObject({ action: 'allow', scope: 'once', by: 'person' });
    expect(page.hits()).toBe(1);
    expect(told.join('\n')).toContain('secret release notes 41f2');
    expect(told.join('\n')).toContain(`The command connected to 127.0.0.1:${port} after it was allowed for this command.`);
    expect(finished(events)[0]).toMatchObject({ outcome: 'ok', metadata: { sandbox: 'sandboxed', reachedHosts: [`127.0.0.1:${port}`] } });
    // What came through the allowed connection is outside content.
    expect(events.some((event) => event.type === 'session.tainted' && event.reason.includes('python3 fetch.py'))).toBe(true);
  });
});

describe('what the answer does', () => {
  it('denied: the script sees a refused connection, the page never reaches the model, and nothing offers to leave the sandbox', async () => {
    page = await startPageServer(PAGE);
    const port = Number(new URL(page.url).port);
    const person = new Person(() => deny);
    const { events, told } = await run({ broker: person, calls: [fetchCall()] });

    expect(page.hits()).toBe(0);
    expect(told.join('\n')).not.toContain('secret release notes');
    expect(JSON.stringify(events)).not.toContain('secret release notes');
    expect(told.join('\n')).toContain('REFUSED');
    expect(told.join('\n')).toContain(
      `The command's connection to 127.0.0.1:${port} was refused: the sandbox fence does not allow it, and it was denied when asked. The person said: not that server`,
    );
    const [question] = networkAsked(events);
    expect(answerTo(events, question!.approvalId)?.decision).toMatchObject({
      action: 'deny',
      scope: 'once',
      by: 'person',
      message: 'not that server',
    });
    // The person answered about the host: no second question about running it outside the sandbox.
    expect(events.some((event) => event.type === 'approval.asked' && event.sandbox?.kind === 'fence_hit')).toBe(false);
    expect(finished(events)[0]).toMatchObject({ outcome: 'error', metadata: { sandbox: 'sandboxed' } });
    expect(finished(events)[0]?.metadata).not.toHaveProperty('reachedHosts');
  });

  it('a deny rule on the domain refuses the connection before anybody is asked', async () => {
    page = await startPageServer(PAGE);
    const dataDir = tempDir('tether-data-');
    writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ permissions: { deny: ['fetch_url(domain:127.0.0.1)'] } }));
    const person = new Person(() => allowOnce);
    const { events, told } = await run({ broker: person, calls: [fetchCall()], dataDir });
    expect(person.networkQuestions()).toHaveLength(0);
    expect(networkAsked(events)).toHaveLength(0);
    expect(page.hits()).toBe(0);
    expect(told.join('\n')).toContain('fetch_url(domain:127.0.0.1) denies');
  });

  it('headless tether run denies at once, and says so to the model', async () => {
    page = await startPageServer(PAGE);
    const { events, told, sessionId } = await run({ broker: new HeadlessBroker({ unleashed: false }), calls: [fetchCall()], mode: 'auto' });
    expect(page.hits()).toBe(0);
    const [question] = networkAsked(events);
    expect(answerTo(events, question!.approvalId)?.decision).toMatchObject({ action: 'deny', by: 'headless' });
    const stored = core!.store.events.list(sessionId);
    const askedAt = stored.find((entry) => entry.event.type === 'approval.asked' && entry.event.sandbox?.kind === 'network')!.at;
    const answeredAt = stored.find(
      (entry) => entry.event.type === 'approval.answered' && entry.event.approvalId === question!.approvalId,
    )!.at;
    expect(answeredAt - askedAt).toBeLessThan(1000);
    expect(told.join('\n')).toContain('a headless run (tether run) opens no host nobody named');
    expect(told.join('\n')).not.toContain('secret release notes');
  });

  it('headless --unleashed refuses a host the fence does not allow, and tells the model which and how to name it', async () => {
    page = await startPageServer(PAGE);
    const port = Number(new URL(page.url).port);
    const { events, told } = await run({ broker: new HeadlessBroker({ unleashed: true }), calls: [fetchCall()], mode: 'unleashed' });
    expect(page.hits()).toBe(0);
    expect(told.join('\n')).not.toContain('secret release notes 41f2');
    const [question] = networkAsked(events);
    expect(answerTo(events, question!.approvalId)?.decision).toMatchObject({ action: 'deny', by: 'headless' });
    expect(told.join('\n')).toContain(`The command's connection to 127.0.0.1:${port} was refused`);
    expect(told.join('\n')).toContain(`tether run --allow-host 127.0.0.1`);
    expect(told.join('\n')).toContain('--unleashed included');
  });

  it('tether run --allow-host lets commands reach that host for the run, asking nothing, and only that host', async () => {
    page = await startPageServer(PAGE);
    const port = Number(new URL(page.url).port);
    const { events, told } = await run({
      broker: new HeadlessBroker({ unleashed: false }),
      calls: [
        { name: 'run_command', arguments: { command: `python3 fetch.py ${page.url}; python3 fetch.py http://127.0.0.2:${port}/other` } },
      ],
      mode: 'auto',
      allowHosts: [`127.0.0.1:${port}`],
    });
    expect(page.hits()).toBe(1);
    expect(told.join('\n')).toContain('secret release notes 41f2');
    expect(networkAsked(events).map((event) => event.sandbox?.host)).toEqual(['127.0.0.2']);
  });

  it('asks once for a command that opens 200 connections to one host', async () => {
    page = await startPageServer(PAGE);
    const person = new Person(() => new Promise((resolve) => setTimeout(() => resolve(allowOnce), 300)));
    const { events, told } = await run({ broker: person, calls: [fetchCall({ count: 200 })] });
    expect(person.networkQuestions()).toHaveLength(1);
    expect(networkAsked(events)).toHaveLength(1);
    expect(page.hits()).toBe(200);
    expect(told.join('\n')).toContain('200 fetched, 0 refused');
  });

  it('Allow always adds the host to the project’s fence in sandbox.json, and the next command asks nothing', async () => {
    page = await startPageServer(PAGE);
    const port = Number(new URL(page.url).port);
    const person = new Person(() => allowAlways());
    const { events, told, dataDir, workspace } = await run({ broker: person, calls: [fetchCall(), fetchCall()] });
    expect(person.networkQuestions()).toHaveLength(1);
    expect(page.hits()).toBe(2);
    const [question] = networkAsked(events);
    expect(answerTo(events, question!.approvalId)?.decision).toEqual({
      action: 'allow',
      scope: 'project',
      by: 'person',
      rule: `127.0.0.1:${port}`,
    });
    const settings = JSON.parse(readFileSync(path.join(dataDir, 'sandbox.json'), 'utf8'));
    expect(settings.projects[workspace]).toMatchObject({ allowedDomains: [`127.0.0.1:${port}`] });
    expect(told.join('\n')).toContain('secret release notes 41f2');
    expect(finished(events).map((event) => event.outcome)).toEqual(['ok', 'ok']);
    // Never the repository's settings.
    expect(() => readFileSync(path.join(workspace, '.tether', 'settings.json'))).toThrow();
  });

  it('offers no Allow always while the session is tainted, and an "always" sent anyway counts once', async () => {
    page = await startPageServer(PAGE);
    const answers = [allowOnce, allowAlways()];
    const person = new Person(() => answers.shift()!);
    const { events, dataDir } = await run({ broker: person, calls: [fetchCall(), fetchCall()] });
    const [first, second] = networkAsked(events);
    expect(first?.allowAlways).toHaveProperty('rule');
    // The first page made the session tainted.
    expect(second?.taint).toContain('python3 fetch.py');
    expect(second?.allowAlways).toEqual({ refused: expect.stringContaining('outside content') });
    expect(answerTo(events, second!.approvalId)?.decision).toMatchObject({ action: 'allow', scope: 'once' });
    expect(() => readFileSync(path.join(dataDir, 'sandbox.json'))).toThrow();
    expect(page.hits()).toBe(2);
  });
});

describe('while the command waits for the answer', () => {
  it('its timeout stands still: a 3 s command waits 5 s for the answer and still completes', async () => {
    page = await startPageServer(PAGE);
    const person = new Person(() => new Promise((resolve) => setTimeout(() => resolve(allowOnce), 5000)));
    const { events, told } = await run({ broker: person, calls: [fetchCall({ timeoutMs: 3000 })] });
    expect(finished(events)[0]).toMatchObject({ outcome: 'ok', metadata: { timedOut: false } });
    expect(told.join('\n')).toContain('secret release notes 41f2');
  });

  it('a question the command stopped waiting for is withdrawn: answered by policy, and the model is told', async () => {
    page = await startPageServer(PAGE);
    const port = Number(new URL(page.url).port);
    const person = new Person(() => 'never');
    const { events, told } = await run({ broker: person, calls: [fetchCall({ prefix: 'FETCH_TIMEOUT=2 ' })] });
    const [question] = networkAsked(events);
    expect(answerTo(events, question!.approvalId)?.decision).toEqual({
      action: 'deny',
      scope: 'once',
      by: 'policy',
      message: 'The command ended before anyone answered.',
    });
    expect(told.join('\n')).toContain(
      `The command's connection to 127.0.0.1:${port} was refused: the command ended before anyone answered the question about it.`,
    );
    expect(page.hits()).toBe(0);
  });

  it('Ctrl-C ends the command as aborted, and the page never comes', async () => {
    page = await startPageServer(PAGE);
    const controller = new AbortController();
    const person = new Person(() => 'never');
    const { outcome, events } = await run({
      broker: person,
      calls: [fetchCall()],
      signal: controller.signal,
      onEvent: ({ event }) => {
        if (event.type === 'approval.asked' && event.sandbox?.kind === 'network') setTimeout(() => controller.abort(), 200);
      },
    });
    expect(outcome.status).toBe('aborted');
    expect(finished(events)[0]).toMatchObject({ outcome: 'aborted' });
    expect(page.hits()).toBe(0);
    expect(networkAsked(events)).toHaveLength(1);
  });
});

describe('what cannot go around the question', () => {
  it('a proxy variable the command sets itself, or no proxy at all, reaches nothing: the sandbox has no network but the proxy', async () => {
    page = await startPageServer(PAGE);
    const port = new URL(page.url).port;
    const person = new Person(() => allowOnce);
    const { events, told } = await run({
      broker: person,
      calls: [
        {
          name: 'run_command',
          arguments: { command: `http_proxy=http://127.0.0.1:${port} HTTP_PROXY=http://127.0.0.1:${port} python3 fetch.py ${page.url}` },
        },
        { name: 'run_command', arguments: { command: `curl -sS --max-time 5 --noproxy '*' ${page.url}` } },
      ],
    });
    expect(page.hits()).toBe(0);
    expect(person.networkQuestions()).toHaveLength(0);
    expect(networkAsked(events)).toHaveLength(0);
    expect(told.join('\n')).toContain('Connection refused');
    expect(told.join('\n')).not.toContain('secret release notes');
  });

  it('a background process a command leaves is ended with it, and never connects afterwards', async () => {
    page = await startPageServer(PAGE);
    const person = new Person(() => allowOnce);
    const { events, workspace } = await run({
      broker: person,
      calls: [
        {
          name: 'run_command',
          arguments: { command: `(sleep 1; python3 fetch.py ${page.url} > late.txt 2>&1) > /dev/null 2>&1 & echo started` },
        },
        { name: 'run_command', arguments: { command: 'sleep 3' } },
      ],
    });
    expect(finished(events).map((event) => event.outcome)).toEqual(['ok', 'ok']);
    expect(page.hits()).toBe(0);
    expect(networkAsked(events)).toHaveLength(0);
    expect(() => readFileSync(path.join(workspace, 'late.txt'))).toThrow();
  });
});

describe('commands of several sessions at once', () => {
  it('refuses a host nobody can be asked about, and the command’s result says why', async () => {
    page = await startPageServer(PAGE);
    const dataDir = tempDir('tether-data-');
    core = createCore({ dataDir });
    // Session A sleeps; session B's command connects while A's runs. The proxy cannot tell whose it is.
    server = await startScriptedModel({
      turns: [
        { toolCalls: [{ name: 'run_command', arguments: { command: 'sleep 4' } }] },
        { toolCalls: [fetchCall()] },
        { text: 'Done.' },
        { text: 'Done.' },
      ],
    });
    const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'scripted-model', api: 'responses' };
    const workspaces = [tempDir('tether-ws-a-'), tempDir('tether-ws-b-')];
    for (const workspace of workspaces) writeFileSync(path.join(workspace, 'fetch.py'), FETCH_PY);
    const [a, b] = workspaces.map((workspace) => core!.createSession({ workspace, task: 'work', model, maxSteps: 5 }));
    // Commands run; leaving the sandbox never does; a network question would be allowed.
    const person: Broker = {
      decide: async (request) =>
        request.leavesFence ? { action: 'deny', scope: 'once', by: 'person' } : { action: 'allow', scope: 'once', by: 'person' },
    };
    let aRunning!: () => void;
    const aStarted = new Promise<void>((resolve) => (aRunning = resolve));
    const first = core.run(a!, {
      model,
      broker: person,
      signal: new AbortController().signal,
      onEvent: ({ event }) => event.type === 'tool.started' && aRunning(),
    });
    await aStarted;
    await new Promise((resolve) => setTimeout(resolve, 300));
    await core.run(b!, { model, broker: person, signal: new AbortController().signal });
    await first;

    expect(page.hits()).toBe(0);
    const bEvents = core.store.events.list(b!).map((stored) => stored.event);
    expect(networkAsked(bEvents)).toHaveLength(0);
    const result = finished(bEvents)[0];
    expect(result?.output).toContain(
      'commands of 2 sessions were running at once and the proxy does not say whose connection this was, so nobody was asked',
    );
    expect(result?.output).not.toContain('secret release notes');
  });
});
