import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { quote } from '@anthropic-ai/sandbox-runtime/dist/utils/shell-quote.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitLinuxCommand, fitMacCommand, readWords, seatbeltProfileOf, UnexpectedCommandError } from './runtimeCommand';

// The runtime's bubblewrap invocation as its linux-sandbox-utils writes it (quote() of bwrap's words),
// fitted to Tether's fence. A real one is run in test/fenceFitsWork.test.ts; these are its shapes.

let root: string;
let ws: string;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-fit-')));
  ws = path.join(root, 'ws');
  fs.mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
  fs.writeFileSync(path.join(root, 'secret'), 'x');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const emptyDir = path.join(os.tmpdir(), 'claude-empty-AbC123');
const library = () =>
  quote([
    'bwrap',
    '--new-session',
    '--unshare-net',
    '--bind',
    '/tmp/claude-http-ab.sock',
    '/tmp/claude-http-ab.sock',
    '--setenv',
    'TMPDIR',
    '/tmp/claude',
    '--setenv',
    'NO_PROXY',
    'localhost,127.0.0.1',
    '--setenv',
    'HTTP_PROXY',
    'http://u:p@localhost:3128',
    '--ro-bind',
    '/',
    '/',
    '--ro-bind',
    `${ws}/.git`,
    `${ws}/.git`,
    '--bind',
    '/root/.npm/_logs',
    '/root/.npm/_logs',
    '--bind',
    ws,
    ws,
    '--ro-bind',
    '/dev/null',
    path.join(root, 'secret'),
    '--ro-bind',
    `${ws}/.git/hooks`,
    `${ws}/.git/hooks`,
    '--ro-bind',
    '/dev/null',
    `${ws}/.tether`,
    '--ro-bind',
    emptyDir,
    `${ws}/.claude`,
    '--dev',
    '/dev',
    '--unshare-pid',
    '--proc',
    '/proc',
    '--',
    '/usr/bin/bash',
    '-c',
    "socat TCP-LISTEN:3128 UNIX-CONNECT:/tmp/claude-http-ab.sock &\necho 'it''s'",
  ]);

const fit = (socket?: string) =>
  readWords(
    fitLinuxCommand(library(), {
      privateTmp: '/data/sandbox/tmp/s1',
      rootsUnderTmp: [ws],
      notWritable: ['/root/.npm/_logs', '/tmp/claude'],
      setenv: { TMPDIR: '/tmp' },
      unsetenv: ['NO_PROXY', 'no_proxy'],
      ...(socket ? { socket } : {}),
    }),
  );

/** The value(s) after each occurrence of an option. */
function optionValues(words: string[], option: string, arity: number): string[][] {
  const found: string[][] = [];
  words.forEach((word, index) => {
    if (word === option) found.push(words.slice(index + 1, index + 1 + arity));
  });
  return found;
}

describe('fitLinuxCommand', () => {
  it('reads back exactly the words the library quoted, quotes and newlines included', () => {
    const words = readWords(library());
    expect(words.at(-1)).toBe("socat TCP-LISTEN:3128 UNIX-CONNECT:/tmp/claude-http-ab.sock &\necho 'it''s'");
    expect(quote(words)).toBe(library());
  });

  it('leaves out the placeholders at paths that are not there, and keeps a secret’s mask and existing protections', () => {
    const binds = optionValues(fit(), '--ro-bind', 2).map(([, dest]) => dest);
    expect(binds).not.toContain(`${ws}/.tether`);
    expect(binds).not.toContain(`${ws}/.claude`);
    expect(binds).toContain(path.join(root, 'secret'));
    expect(binds).toContain(`${ws}/.git/hooks`);
  });

  it('keeps a placeholder whose path has come to exist (it is then a protection of a real path)', () => {
    fs.writeFileSync(path.join(ws, '.tether'), '');
    try {
      expect(optionValues(fit(), '--ro-bind', 2)).toContainEqual(['/dev/null', `${ws}/.tether`]);
    } finally {
      fs.rmSync(path.join(ws, '.tether'));
    }
  });

  it('binds the private /tmp right after the read-only root, then the sockets and the fence roots under /tmp, before the pins', () => {
    const words = fit('/tmp/srt-obs-1/s.sock');
    const at = (option: string, first: string, second: string) =>
      words.findIndex((word, index) => word === option && words[index + 1] === first && words[index + 2] === second);
    const root = at('--ro-bind', '/', '/');
    expect(at('--bind', '/data/sandbox/tmp/s1', '/tmp')).toBe(root + 3);
    expect(at('--bind', '/tmp/claude-http-ab.sock', '/tmp/claude-http-ab.sock')).toBe(root + 6);
    expect(at('--ro-bind', ws, ws)).toBe(root + 9);
    expect(at('--bind', '/tmp/srt-obs-1/s.sock', '/tmp/srt-obs-1/s.sock')).toBe(root + 12);
    expect(at('--ro-bind', `${ws}/.git`, `${ws}/.git`)).toBeGreaterThan(root + 12);
    // Made once, after the root: not also before it, where the private /tmp would hide it.
    expect(words.filter((word) => word === '/tmp/claude-http-ab.sock')).toHaveLength(2);
  });

  it('takes back the library’s own writable places and sets TMPDIR to /tmp, with no NO_PROXY to go around the proxy', () => {
    const words = fit();
    expect(optionValues(words, '--bind', 2)).not.toContainEqual(['/root/.npm/_logs', '/root/.npm/_logs']);
    expect(optionValues(words, '--setenv', 2).filter(([name]) => name === 'TMPDIR')).toEqual([['TMPDIR', '/tmp']]);
    expect(optionValues(words, '--setenv', 2).some(([name]) => /no_proxy/i.test(name!))).toBe(false);
    expect(optionValues(words, '--unsetenv', 1)).toEqual([['NO_PROXY'], ['no_proxy']]);
    expect(optionValues(words, '--setenv', 2)).toContainEqual(['HTTP_PROXY', 'http://u:p@localhost:3128']);
  });

  it('refuses a command in a shape it does not know: nothing runs in a fence Tether did not check', () => {
    const base = { privateTmp: '/p', rootsUnderTmp: [], notWritable: [], setenv: {}, unsetenv: [] };
    expect(() => fitLinuxCommand(quote(['bwrap', '--frobnicate', '--', 'sh']), base)).toThrow(UnexpectedCommandError);
    expect(() => fitLinuxCommand(quote(['bwrap', '--bind', '/a', '/a', '--', 'sh']), base)).toThrow(/root read-only/);
    expect(() =>
      fitLinuxCommand(quote(['/bin/sh', '-c', 'exec 9<"$1"', 'srt-args', '/proc/1/fd/9', 'bwrap', '--args', '9']), base),
    ).toThrow(/more mounts than one command line holds/);
    expect(() => readWords('bwrap $(id)')).toThrow(UnexpectedCommandError);
  });
});

describe('fitMacCommand', () => {
  const mac = () =>
    quote([
      'env',
      'SANDBOX_RUNTIME=1',
      'TMPDIR=/tmp/claude',
      'NO_PROXY=localhost',
      '/usr/bin/sandbox-exec',
      '-p',
      '(version 1)\n(allow default)',
      '/bin/bash',
      '-c',
      'echo hi',
    ]);

  it('appends Tether’s rules to the profile, sets TMPDIR, and takes NO_PROXY out', () => {
    const fitted = fitMacCommand(mac(), {
      rules: '(deny file-write* (subpath "/private/tmp"))',
      setenv: { TMPDIR: '/data/tmp/s1' },
      unsetenv: ['NO_PROXY'],
    });
    expect(seatbeltProfileOf(fitted)).toBe('(version 1)\n(allow default)\n(deny file-write* (subpath "/private/tmp"))');
    const words = readWords(fitted);
    expect(words).toContain('TMPDIR=/data/tmp/s1');
    expect(words).not.toContain('TMPDIR=/tmp/claude');
    expect(words.some((word) => word.startsWith('NO_PROXY='))).toBe(false);
    expect(words.slice(0, 3)).toEqual(['env', '-u', 'NO_PROXY']);
    expect(words.slice(-3)).toEqual(['/bin/bash', '-c', 'echo hi']);
  });
});
