import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import type { PermissionRule } from '../src/shared/permissions';
import { createPermissionEngine } from '../src/main/permissions/engine';
import { analyzeCommand, initShellParser } from '../src/main/shell/analyzeCommand';
import { command } from '../test/support/permissionQueries';
import { sampleStats } from './support/sampleStats';

// The whole explain of one ten-part command: the real shell analysis (tree-sitter-bash), every rule
// matched against every part, the verdict, and for an ask the "Allow always" offer (checked by a
// second evaluation). Rules are parsed once, when the engine is made. Target (the
// permissions issue): median under 2 ms.

const RUNS = 2000;
const TARGET_MS = 2;

const rules: PermissionRule[] = [
  ...['npm test *', 'npm run lint *', 'git status', 'git log *', 'git diff *', 'cargo test *', 'make *', 'pytest *', 'ls *', 'cat *'].map(
    (p) => ({ pattern: `run_command(${p})`, action: 'allow' as const, source: 'user' as const }),
  ),
  ...['git push *', 'npm publish *', 'docker *'].map((p) => ({
    pattern: `run_command(${p})`,
    action: 'ask' as const,
    source: 'project' as const,
  })),
  ...['rm -rf /*', 'sudo *', 'curl * | sh', 'dd *', 'mkfs *'].map((p) => ({
    pattern: `run_command(${p})`,
    action: 'deny' as const,
    source: 'user' as const,
  })),
  ...Array.from({ length: 30 }, (_, i) => ({
    pattern: `run_command(tool${i} sub${i} *)`,
    action: 'allow' as const,
    source: 'session' as const,
  })),
  { pattern: 'edit_file(src/**)', action: 'allow', source: 'user' },
  { pattern: 'read_file(secrets/**)', action: 'deny', source: 'user' },
  { pattern: 'fetch_url(domain:docs.example.com)', action: 'allow', source: 'user' },
];

const commands = {
  'allow (10 parts)':
    'git status && git log --oneline -5 && npm test -- --watch=false && npm run lint -- --fix && ls -la src && cat package.json | head -5 && git diff --stat && cargo test && make build && pytest -q',
  'ask (10 parts)':
    'git status && git log -1 && npm test && npm run lint && ls && cat a.txt && git diff && cargo test && make && ./scripts/release.sh --dry-run',
  'deny (10 parts)':
    'git status && git log -1 && npm test && npm run lint && ls && cat a.txt && git diff && cargo test && make && sudo rm -rf /tmp/x',
  'substitutions (10 parts)':
    'echo "$(git rev-parse HEAD)" > rev.txt && ls $(pwd) && git log -1 && npm test && cat a | grep x | wc -l && git diff && make && pytest && ls',
};

it('permission engine: explain a ten-part command', async () => {
  await initShellParser();
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-bench-perm-')));
  try {
    const engine = createPermissionEngine({
      workspaceRoot: root,
      mode: 'ask',
      outsideContent: 'ask',
      rules,
      projectTrusted: true,
      analyze: analyzeCommand,
    });
    console.log(`permission engine: ${engine.rules().length} rules, ${RUNS} runs per command`);
    let met = true;
    for (const [name, text] of Object.entries(commands)) {
      for (let i = 0; i < 200; i++) engine.evaluate(command(text)); // warm up the JIT and the parser
      const samples: number[] = [];
      let verdict = engine.evaluate(command(text));
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        verdict = engine.evaluate(command(text));
        samples.push(performance.now() - started);
      }
      const s = sampleStats(samples);
      met &&= s.median < TARGET_MS;
      // The shell analysis alone, to show what the engine adds on top of it.
      const parseOnly: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        analyzeCommand(text, { cwd: root, workspaceRoot: root });
        parseOnly.push(performance.now() - started);
      }
      const a = sampleStats(parseOnly);
      // And the engine alone, on an analysis made once.
      const analysis = analyzeCommand(text, { cwd: root, workspaceRoot: root });
      const cached = createPermissionEngine({
        workspaceRoot: root,
        mode: 'ask',
        outsideContent: 'ask',
        rules,
        projectTrusted: true,
        analyze: () => analysis,
      });
      const engineOnly: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        cached.evaluate(command(text));
        engineOnly.push(performance.now() - started);
      }
      const g = sampleStats(engineOnly);
      console.log(
        `  ${name.padEnd(26)} ${verdict.action.padEnd(5)} parts=${verdict.commands?.length ?? 'unpinnable'}  median ${s.median.toFixed(3)} ms  p95 ${s.p95.toFixed(3)} ms  max ${s.max.toFixed(3)} ms` +
          `  (analysis alone: median ${a.median.toFixed(3)} ms; engine alone: median ${g.median.toFixed(3)} ms, p95 ${g.p95.toFixed(3)} ms)`,
      );
    }
    console.log(`  target: median under ${TARGET_MS} ms for every command: ${met ? 'met' : 'NOT met'}`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
