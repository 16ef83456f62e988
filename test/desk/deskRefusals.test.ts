import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, closeCliModels } from '../support/cli';
import { closeDesks, startDesk } from '../support/desk';
import { freePort, startRunner, writeTurn } from '../support/runner';
import { removeTempDirs } from '../support/tempDirs';

// `tether run --desk` that cannot use its desk stops before the model is asked anything: one clear
// line on stderr and an exit status of its own (README, "Using the command line").

beforeAll(() => assertCliBuilt());
afterEach(async () => {
  await closeDesks();
  await closeCliModels();
  removeTempDirs();
});

const turns = [writeTurn('never.txt'), { text: 'never' }];

async function refused(run: Awaited<ReturnType<typeof startRunner>>, code: number, line: RegExp) {
  expect(await run.exited).toBe(code);
  const lines = run.stderr().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(line);
  // Nothing was asked of the model, and nothing was written.
  expect(run.server.received).toEqual([]);
  expect(run.events).toEqual([]);
}

describe('a run whose desk refuses it', () => {
  it('stops with 11 for a token the desk does not know, and for none at all', async () => {
    const desk = await startDesk();
    await refused(
      await startRunner({ desk: desk.url, token: 'tether-runner.AAAAAAAAAAA.' + 'A'.repeat(43), turns }),
      11,
      /^tether: The desk does not know this runner token/,
    );
    await refused(
      await startRunner({ desk: desk.url, turns }),
      11,
      /^tether: tether run --desk needs this runner's token in TETHER_DESK_TOKEN/,
    );
  });

  it('stops with 12 for a revoked token', async () => {
    const desk = await startDesk();
    const token = await desk.token('old-box');
    await desk.handlers['remote:revokeToken']({ name: 'old-box' });
    await refused(
      await startRunner({ desk: desk.url, token, turns }),
      12,
      /^tether: The token of runner old-box was revoked at the desk on /,
    );
  });

  it('stops with 10 when nothing answers at the address', async () => {
    await refused(
      await startRunner({ desk: `ws://127.0.0.1:${await freePort()}`, token: 'x', turns }),
      10,
      /^tether: Cannot reach the desk at ws:\/\/127\.0\.0\.1:\d+/,
    );
  });

  it('stops with 13 for a certificate that is not the pinned one, and connects to the one that is', async () => {
    const desk = await startDesk({ tls: true });
    expect(desk.url).toMatch(/^wss:\/\/127\.0\.0\.1:\d+$/);
    const token = await desk.token('tls-box');
    const wrong = desk.fingerprint!.replace(/^../, desk.fingerprint!.startsWith('00') ? '11' : '00');
    await refused(
      await startRunner({ desk: desk.url, token, turns, extra: ['--desk-fingerprint', wrong] }),
      13,
      /^tether: The desk at wss:.* showed a certificate with SHA-256 .*not the one given with --desk-fingerprint/,
    );
    await refused(await startRunner({ desk: desk.url, token, turns }), 13, /certificate that is not trusted .*--desk-fingerprint/);

    const pinned = await startRunner({
      desk: desk.url,
      token,
      turns: [{ text: 'hello over TLS' }],
      extra: ['--desk-fingerprint', desk.fingerprint!.toLowerCase()],
    });
    expect(await pinned.exited).toBe(0);
    await expect.poll(async () => (await desk.handlers['sessions:list']({}))[0]?.status).toBe('done');
  }, 60_000);

  it('refuses --unleashed with --desk, a token on the command line, and a plain ws:// address off this machine', async () => {
    const desk = await startDesk();
    const token = await desk.token('x');
    await refused(
      await startRunner({ desk: desk.url, token, turns, extra: ['--unleashed'] }),
      1,
      /--unleashed and --desk together are refused/,
    );
    await refused(
      await startRunner({ desk: desk.url, token, turns, extra: ['--desk-token', token] }),
      1,
      /read from TETHER_DESK_TOKEN only, never from the command line/,
    );
    await refused(
      await startRunner({ desk: 'ws://desk.example:7717', token, turns }),
      1,
      /A plain ws:\/\/ address reaches only this machine/,
    );
  });
});
