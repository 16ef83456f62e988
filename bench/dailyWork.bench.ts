import fs from 'node:fs';
import os from 'node:os';
import { it } from 'vitest';
import { runtimeStopped } from '../src/main/sandbox/sandboxRuntime';
import { createPtyTerminal } from '../src/main/terminal/pty';
import { describeDifference, installedToolchains, runDailyWork, runRoot } from './support/dailyWork';
import { sampleStats } from './support/sampleStats';

// The fence fits real work (issue 30): a developer's everyday loop (bench/support/dailyWork.ts) for
// each toolchain installed here, run inside the fence and outside it on identical copies of one small
// project. Prints N/M identical, each difference, the connections the fence asked about, and the
// sandbox's overhead per command (the median of inside − outside over the loop's commands, and over
// `true` alone). Targets: 100% identical, zero prompts, overhead < 30 ms.

const TRUE_ROUNDS = 20;

it('daily work inside the fence and outside it', async () => {
  const root = runRoot();
  const toolchains = installedToolchains();
  console.log(`toolchains here: ${toolchains.join(', ')}`);
  try {
    const report = await runDailyWork({
      root,
      toolchains,
      onOutcome: (outcome) =>
        console.log(
          `${outcome.identical ? '✓' : '✗'} ${outcome.inside.ms.toFixed(0).padStart(6)} ms in, ${outcome.outside.ms.toFixed(0).padStart(6)} ms out  [${outcome.command.group}] ${outcome.command.command}`,
        ),
    });
    const { outcomes, prompts, sandbox } = report;
    const identical = outcomes.filter((outcome) => outcome.identical).length;
    const overhead = sampleStats(outcomes.map((outcome) => outcome.inside.ms - outcome.outside.ms));

    // `true` alone, taking turns, so the figure is the fence's and not the work's.
    const terminal = createPtyTerminal();
    const signal = new AbortController().signal;
    const ws = sandbox.fence.workspace;
    const bare: number[] = [];
    const floor: number[] = [];
    const fenced: number[] = [];
    // The least any bubblewrap sandbox costs: new namespaces, the root bound read-only, /dev and /proc.
    const bwrap = 'bwrap --new-session --die-with-parent --unshare-all --ro-bind / / --dev /dev --proc /proc -- /bin/true';
    for (let round = 0; round < TRUE_ROUNDS; round++) {
      let start = performance.now();
      await terminal.run({ command: 'true', cwd: ws, timeoutMs: 30_000, signal });
      bare.push(performance.now() - start);
      start = performance.now();
      await terminal.run({ command: bwrap, cwd: ws, timeoutMs: 30_000, signal });
      floor.push(performance.now() - start);
      start = performance.now();
      const prepared = await sandbox.wrap('true', ws, { staysLocal: true });
      const result = await terminal.run({ command: prepared.command, env: prepared.env, cwd: ws, timeoutMs: 30_000, signal });
      prepared.finish(result.output, result.exitCode);
      fenced.push(performance.now() - start);
    }
    terminal.dispose();
    sandbox.dispose();

    console.log(`\n${identical}/${outcomes.length} commands identical inside and outside the fence`);
    for (const outcome of outcomes.filter((each) => !each.identical)) console.log(describeDifference(outcome));
    for (const outcome of outcomes.filter((each) => each.notes.length > 0))
      console.log(`note [${outcome.command.command}]: ${outcome.notes.join(' ')}`);
    console.log(`fence prompts: ${prompts.length}${prompts.map((prompt) => `\n  ${prompt}`).join('')}`);
    console.log(
      `overhead per command over the loop (inside − outside): median ${overhead.median.toFixed(1)} ms, p95 ${overhead.p95.toFixed(1)} ms`,
    );
    const trueOverhead = sampleStats(fenced).median - sampleStats(bare).median;
    const floorOverhead = sampleStats(floor).median - sampleStats(bare).median;
    console.log(
      `overhead on \`true\` (${TRUE_ROUNDS} rounds): median ${sampleStats(fenced).median.toFixed(1)} ms fenced − ${sampleStats(bare).median.toFixed(1)} ms bare = ${trueOverhead.toFixed(1)} ms (target < 30 ms); a bare bubblewrap's floor: ${floorOverhead.toFixed(1)} ms`,
    );
    console.log(
      `load average while it ran: ${os
        .loadavg()
        .map((load) => load.toFixed(1))
        .join(', ')} on ${os.cpus().length} cores`,
    );
  } finally {
    await runtimeStopped();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
