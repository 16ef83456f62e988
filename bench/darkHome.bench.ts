import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import { createCommandSandbox, type CommandSandbox } from '../src/main/sandbox/commandSandbox';
import { createPtyTerminal } from '../src/main/terminal/pty';
import { sampleStats } from './support/sampleStats';

// The dark home's cost (issue 31): `true` in the PTY outside the sandbox, and inside it as run_command
// runs it (profile compiled once, reused), with a small home and with a home of 5,000 entries; and a
// profile compiled for every command (what a new session's first command pays: the lit places looked
// up, the git config derived), small and large. The variants take turns within each round.
// Target: median overhead per command under 30 ms with a reused sandbox.

const ROUNDS = 20;
const WARMUP = 3;
const ENTRIES = 5_000;

function makeHome(entries: number): { home: string; ws: string; dataDir: string } {
  const home = fs.realpathSync(fs.mkdtempSync('/var/tmp/tether-bench-home-'));
  for (const store of ['.ssh/id_ed25519', '.aws/credentials', '.claude/.credentials.json', '.config/gh/hosts.yml', '.netrc']) {
    fs.mkdirSync(path.dirname(path.join(home, store)), { recursive: true });
    fs.writeFileSync(path.join(home, store), 'secret\n');
  }
  for (const lit of ['.nvm/versions/node/v22/bin', '.pyenv/shims', '.cargo/bin', 'go/bin', '.local/bin'])
    fs.mkdirSync(path.join(home, lit), { recursive: true });
  fs.writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.com\n[credential]\n\thelper = store\n');
  for (let i = 0; i < entries; i++) {
    if (i % 10 === 0) fs.mkdirSync(path.join(home, `dir-${i}`));
    else fs.writeFileSync(path.join(home, `.file-${i}`), `${i}\n`);
  }
  const ws = path.join(home, 'code', 'app');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  return { home, ws, dataDir: path.join(home, '.config', 'tether') };
}

it(`dark home overhead per command, ${ROUNDS} rounds`, async () => {
  const small = makeHome(0);
  const large = makeHome(ENTRIES);
  const terminal = createPtyTerminal();
  const signal = new AbortController().signal;
  const sandboxes: CommandSandbox[] = [];
  const sandboxFor = (at: typeof small) => {
    const sandbox = createCommandSandbox({ workspace: at.ws, dataDir: at.dataDir, home: at.home });
    sandboxes.push(sandbox);
    return sandbox;
  };
  const inPty = (cwd: string, command: string, env?: Record<string, string>) =>
    terminal.run({ command, cwd, timeoutMs: 30_000, signal, ...(env ? { env } : {}) });
  const runIn = async (sandbox: CommandSandbox, cwd: string) => {
    const prepared = await sandbox.wrap('true', cwd, { staysLocal: true });
    const result = await inPty(cwd, prepared.command, prepared.env);
    prepared.finish(result.output, result.exitCode);
    if (result.exitCode !== 0) throw new Error(`sandboxed true exited ${result.exitCode}: ${result.output}`);
  };
  const reusedSmall = sandboxFor(small);
  const reusedLarge = sandboxFor(large);
  const variants: Array<[string, () => Promise<void>]> = [
    ['PTY, no sandbox: true', async () => void (await inPty(small.ws, 'true'))],
    ['sandboxed, reused profile, small home', () => runIn(reusedSmall, small.ws)],
    [`sandboxed, reused profile, home of ${ENTRIES} entries`, () => runIn(reusedLarge, large.ws)],
    [
      'sandboxed, profile compiled per command, small home',
      async () => {
        const once = createCommandSandbox({ workspace: small.ws, dataDir: small.dataDir, home: small.home });
        await runIn(once, small.ws);
        once.dispose();
      },
    ],
    [
      `sandboxed, profile compiled per command, home of ${ENTRIES} entries`,
      async () => {
        const once = createCommandSandbox({ workspace: large.ws, dataDir: large.dataDir, home: large.home });
        await runIn(once, large.ws);
        once.dispose();
      },
    ],
  ];
  try {
    const samples = variants.map(() => [] as number[]);
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      for (let k = 0; k < variants.length; k++) {
        const index = (round + k) % variants.length;
        const started = performance.now();
        await variants[index]![1]();
        if (round >= WARMUP) samples[index]!.push(performance.now() - started);
      }
    }
    const results = variants.map(([label], index) => ({ label, ...sampleStats(samples[index]!) }));
    for (const { label, median, p95 } of results) {
      console.log(`${label.padEnd(60)} median ${median.toFixed(1).padStart(6)} ms   p95 ${p95.toFixed(1).padStart(6)} ms   (n=${ROUNDS})`);
    }
    const pty = results[0]!.median;
    console.log(
      `overhead per command (median): small home ${(results[1]!.median - pty).toFixed(1)} ms, ${ENTRIES} entries ${(results[2]!.median - pty).toFixed(1)} ms; load ${os
        .loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')} on ${os.cpus().length} cores`,
    );
  } finally {
    for (const sandbox of sandboxes) sandbox.dispose();
    terminal.dispose();
    for (const at of [small, large]) fs.rmSync(at.home, { recursive: true, force: true });
  }
});
