import { realpathSync } from 'node:fs';
import type { SessionEvent } from '../../src/shared/events';
import type { Json } from '../../src/shared/json';
import { openStore } from '../../src/main/store/store';

/** The text of the session's last answer, which the benchmark waits to see on screen. */
export const LAST_ANSWER_MARK = 'All 248 tests pass now';

export interface LongSession {
  sessionId: string;
  title: string;
  events: number;
  conversationItems: number;
}

/**
 * A session of at least `minEvents` events written through the real store, as the agent loop writes
 * them: a task, then turns of model.requested / model.responded (a sentence of reasoning, a
 * sentence of text, a tool call) / tool.started / tool.finished with a few hundred characters of
 * output, a plan now and then, an approval every few commands, a message from the person every
 * hundred turns, and a final answer.
 */
export function writeLongSession(options: { dataDir: string; workspace: string; baseUrl: string; minEvents: number }): LongSession {
  const workspace = realpathSync(options.workspace);
  const store = openStore(options.dataDir);
  try {
    const project = store.projects.ensure(workspace);
    const title = `Long session (${options.minEvents.toLocaleString('en-US')} events)`;
    const session = store.sessions.create({
      workspace,
      projectId: project.id,
      model: 'scripted-model',
      api: 'chat',
      baseUrl: options.baseUrl,
      maxSteps: 5000,
      title,
    });
    let events = 0;
    let items = 0;
    const append = (event: SessionEvent) => {
      store.events.append(session.id, event);
      events++;
      if (event.type === 'user.messaged' || event.type === 'tool.finished') items++;
      if (event.type === 'model.responded') items += event.items.length;
    };
    append({ type: 'session.started', workspace, model: 'scripted-model', api: 'chat', baseUrl: options.baseUrl, maxSteps: 5000 });
    append({
      type: 'user.messaged',
      text: 'Migrate the test suite from mocha to node:test, one file at a time, and keep every test green.',
    });
    let step = 0;
    let approval = 0;
    while (events < options.minEvents - 4) {
      step++;
      const turn = TURNS[step % TURNS.length]!;
      const callId = `call_${step.toString(36).padStart(6, '0')}`;
      const file = `test/unit/module${(step % 97) + 1}.test.js`;
      append({ type: 'model.requested', step });
      append({
        type: 'model.responded',
        items: [
          { type: 'reasoning', api: 'chat', summary: turn.reasoning.replace('FILE', file) },
          { type: 'assistant', text: turn.say.replace('FILE', file) },
          { type: 'tool_call', callId, name: turn.tool, arguments: JSON.stringify(turn.args(file)) },
        ],
        usage: {
          inputTokens: 9_000 + step * 40,
          outputTokens: 120 + (step % 50),
          cachedInputTokens: 8_000 + step * 38,
          reasoningTokens: 40,
        },
      });
      if (turn.tool === 'run_command' && step % 3 === 0) {
        const approvalId = `ap_${++approval}`;
        const command = (turn.args(file) as { command: string }).command;
        append({
          type: 'approval.asked',
          approvalId,
          callId,
          tool: 'run_command',
          risk: 'exec',
          summary: `Run ${command}`,
          args: turn.args(file),
          commands: [command.split(' ')],
          allowAlways: { rule: `run_command(${command.split(' ').slice(0, 2).join(' ')} *)` },
        });
        append({ type: 'approval.answered', approvalId, callId, decision: { action: 'allow', scope: 'once', by: 'person' } });
      }
      append({ type: 'tool.started', callId, name: turn.tool, args: turn.args(file) });
      append({
        type: 'tool.finished',
        callId,
        name: turn.tool,
        outcome: step % 41 === 0 ? 'error' : 'ok',
        title: turn.title.replace('FILE', file),
        output: turn.output(file, step),
        durationMs: 40 + ((step * 37) % 900),
      });
      if (step % 25 === 0) {
        append({
          type: 'plan.updated',
          steps: [
            { step: 'Convert the unit tests', status: step < 600 ? 'in_progress' : 'done' },
            { step: 'Convert the integration tests', status: step < 600 ? 'pending' : 'in_progress' },
            { step: 'Remove mocha', status: 'pending' },
          ],
        });
      }
      if (step % 100 === 0) append({ type: 'user.messaged', text: `Keep going; also make sure ${file} still runs on its own.` });
    }
    append({ type: 'model.requested', step: step + 1 });
    append({
      type: 'model.responded',
      items: [
        {
          type: 'assistant',
          text: `${LAST_ANSWER_MARK}: every file under **test/** uses \`node:test\`, and mocha is gone from package.json.`,
        },
      ],
      usage: { inputTokens: 9_000 + step * 40, outputTokens: 60, cachedInputTokens: 8_000 + step * 38, reasoningTokens: 0 },
    });
    append({ type: 'session.finished', status: 'done', reason: 'The model answered.' });
    return { sessionId: session.id, title, events, conversationItems: items };
  } finally {
    store.close();
  }
}

interface TurnShape {
  reasoning: string;
  say: string;
  tool: string;
  title: string;
  args(file: string): { [key: string]: Json };
  output(file: string, step: number): string;
}

const TEST_LINES = [
  '✔ parses an empty config (0.412ms)',
  '✔ rejects a config with an unknown key (0.233ms)',
  '✔ merges the user and the project settings (1.027ms)',
  '✔ keeps the order of the rules (0.198ms)',
  '✔ reports the line of a syntax error (0.644ms)',
];

const TURNS: TurnShape[] = [
  {
    reasoning: 'FILE still imports chai; read it before changing the assertions.',
    say: 'Next is FILE. Let me read it first.',
    tool: 'read_file',
    title: 'Read FILE',
    args: (file) => ({ path: file }),
    output: (file, step) =>
      `     1\timport { describe, it } from 'mocha';\n     2\timport { expect } from 'chai';\n     3\timport { loadConfig } from '../../src/config/module${step % 97}.js';\n     4\t\n     5\tdescribe('${file}', () => {\n     6\t  it('parses an empty config', () => {\n     7\t    expect(loadConfig('')).to.deep.equal({});\n     8\t  });\n     9\t  it('keeps the order of the rules', () => {\n    10\t    expect(loadConfig('a\\nb').rules).to.have.length(2);\n    11\t  });\n    12\t});\n`,
  },
  {
    reasoning: 'Swap the imports and the expect calls for node:assert; nothing else changes.',
    say: 'Converting the imports and assertions in FILE to `node:test` and `node:assert/strict`.',
    tool: 'edit_file',
    title: 'Edited FILE',
    args: (file) => ({
      path: file,
      old_string: "import { describe, it } from 'mocha';\nimport { expect } from 'chai';",
      new_string: "import { describe, it } from 'node:test';\nimport assert from 'node:assert/strict';",
    }),
    output: (file) =>
      `Edited ${file}: replaced 2 lines with 2 lines.\n@@ -1,3 +1,3 @@\n-import { describe, it } from 'mocha';\n-import { expect } from 'chai';\n+import { describe, it } from 'node:test';\n+import assert from 'node:assert/strict';\n import { loadConfig } from '../../src/config/module.js';\n`,
  },
  {
    reasoning: 'Run just this file to see that it passes under node --test.',
    say: 'Running FILE on its own.',
    tool: 'run_command',
    title: 'node --test FILE',
    args: (file) => ({ command: `node --test ${file}`, description: 'Run the converted file' }),
    output: (file, step) =>
      `▶ ${file}\n${TEST_LINES.map((line) => `  ${line}`).join('\n')}\n▶ ${file} (${(3 + (step % 7)) * 1.3}ms)\nℹ tests 5\nℹ suites 1\nℹ pass ${step % 41 === 0 ? 4 : 5}\nℹ fail ${step % 41 === 0 ? 1 : 0}\nℹ cancelled 0\nℹ duration_ms ${60 + (step % 90)}.2\n`,
  },
  {
    reasoning: 'Check nothing else still references mocha globals.',
    say: 'Searching for leftover mocha globals.',
    tool: 'search_code',
    title: 'Searched for "before\\(|after\\("',
    args: () => ({ pattern: 'before\\(|after\\(', path: 'test' }),
    output: (_file, step) =>
      Array.from(
        { length: 6 },
        (_, i) => `test/unit/module${((step + i * 13) % 97) + 1}.test.js:${10 + i * 7}:  before(() => resetConfig());`,
      ).join('\n') + '\n',
  },
];
