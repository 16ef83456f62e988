import { quote } from '@anthropic-ai/sandbox-runtime/dist/utils/shell-quote.js';
import { describe, expect, it } from 'vitest';
import { profileCommands, withWritableGitConfig } from './profileCommands';
import { readBwrapCommand } from './runtimeCommand';

// The runtime's script as its linux-sandbox-utils writes it (buildSandboxCommand): bubblewrap runs
// `bash -c 'bash -c <script>'`, the script being two socat bridges, a trap, then apply-seccomp around
// the command. A real profile runs both forms in runCommand.sandbox.test.ts; these are their shapes.

const SECCOMP = '/opt/srt/vendor/seccomp/x64/apply-seccomp';
const COMMAND = 'wait-for-bridges; eval "$TETHER_SANDBOXED_COMMAND"';
const LOCAL = 'eval "$TETHER_SANDBOXED_COMMAND"';
const http = '/usr/bin/socat TCP-LISTEN:3128,fork,reuseaddr UNIX-CONNECT:/tmp/claude-http-ab12.sock >/dev/null 2>&1 &';
const socks = '/usr/bin/socat TCP-LISTEN:1080,fork,reuseaddr UNIX-CONNECT:/tmp/claude-socks-cd34.sock >/dev/null 2>&1 &';
const trap = "trap 'rc=$?; kill %1 %2 2>/dev/null; exit $rc' EXIT";
const options = [
  '--unshare-net',
  '--bind',
  '/tmp/claude-http-ab12.sock',
  '/tmp/claude-http-ab12.sock',
  '--ro-bind',
  '/',
  '/',
  '--unshare-pid',
];

const innerScript = (helpers: string[], last = `${SECCOMP} ${quote(['/usr/bin/bash', '-c', COMMAND])}`) => [...helpers, last].join('\n');
const library = (inner: string, nested = true) =>
  quote(['/usr/bin/bwrap', ...options, '--', '/usr/bin/bash', '-c', nested ? `/usr/bin/bash -c ${quote([inner])}` : inner]);
const forms = (fitted: string) => profileCommands(fitted, { command: COMMAND, localCommand: LOCAL });

describe('profileCommands', () => {
  it('runs a command that stays local with bubblewrap starting apply-seccomp directly: no bridges, no trap, no outer shell, no proxy socket', () => {
    const { local } = forms(library(innerScript([http, socks, trap])));
    const read = readBwrapCommand(local!);
    expect(read.command).toEqual([SECCOMP, '/usr/bin/bash', '-c', LOCAL]);
    // The rest of the fence as it was: only the binds of the sockets the bridges connect to go.
    expect(read.options.flat()).toEqual(['--unshare-net', '--ro-bind', '/', '/', '--unshare-pid']);
  });

  it('keeps every bind but the bridges’ sockets: another socket, a bind of the same path elsewhere', () => {
    const more = [
      '--bind',
      '/tmp/srt-obs-1/s.sock',
      '/tmp/srt-obs-1/s.sock',
      '--ro-bind',
      '/tmp/claude-socks-cd34.sock',
      '/tmp/claude-socks-cd34.sock',
    ];
    const fitted = quote(['/usr/bin/bwrap', ...options, ...more, '--', '/usr/bin/bash', '-c', innerScript([http, socks, trap])]);
    expect(readBwrapCommand(forms(fitted).local!).options.flat()).toEqual([
      '--unshare-net',
      '--ro-bind',
      '/',
      '/',
      '--unshare-pid',
      ...more,
    ]);
    expect(readBwrapCommand(forms(fitted).network).options.flat()).toEqual([...options, ...more]);
  });

  it('runs a command that may go out through one shell instead of a shell that starts another, the script unchanged', () => {
    const inner = innerScript([http, socks, trap]);
    const { network } = forms(library(inner));
    expect(readBwrapCommand(network).command).toEqual(['/usr/bin/bash', '-c', inner]);
    // A script already run by one shell stays as it is.
    expect(forms(library(inner, false)).network).toBe(library(inner, false));
  });

  it('has a local form without a network fence too (the library then runs apply-seccomp as the whole script)', () => {
    const fitted = quote([
      '/usr/bin/bwrap',
      ...options,
      '--',
      '/usr/bin/bash',
      '-c',
      `${SECCOMP} ${quote(['/usr/bin/bash', '-c', COMMAND])}`,
    ]);
    expect(readBwrapCommand(forms(fitted).local!).command).toEqual([SECCOMP, '/usr/bin/bash', '-c', LOCAL]);
  });

  it('has no local form when the script holds anything it does not know, so no part of it is dropped unread', () => {
    const unknown = [
      innerScript([http, socks, trap, 'touch /tmp/ready']),
      innerScript([http, trap]),
      innerScript([socks, http, trap]),
      innerScript([http.replace('socat', 'socat2'), socks, trap]),
      innerScript([`'/opt/my bin/socat' ${http.slice('/usr/bin/socat '.length)}`, socks, trap]),
      innerScript([http, socks, trap.replace('kill', 'true')]),
      // No apply-seccomp: without its filter a command could open the proxy's unix socket.
      innerScript([http, socks, trap], `eval ${quote([COMMAND])}`),
      innerScript([http, socks, trap], `/opt/srt/not-seccomp ${quote(['/usr/bin/bash', '-c', COMMAND])}`),
      innerScript([http, socks, trap], `apply-seccomp ${quote(['/usr/bin/bash', '-c', COMMAND])}`),
      innerScript([http, socks, trap], `ARGV0=apply-seccomp /opt/srt/srt ${quote(['/usr/bin/bash', '-c', COMMAND])}`),
      innerScript([http, socks, trap], `${SECCOMP} ${quote(['/usr/bin/bash', '-c', 'something else'])}`),
      innerScript([http, socks, trap], `${SECCOMP} ${quote(['/bin/zsh', '-c', COMMAND])}`),
    ];
    for (const inner of unknown) expect(forms(library(inner)).local, inner).toBeUndefined();
  });
});

describe('withWritableGitConfig', () => {
  const config = '/w/.git/config';
  const fenced = (...more: string[]) =>
    quote([
      '/usr/bin/bwrap',
      '--ro-bind',
      '/',
      '/',
      ...more,
      '--ro-bind',
      config,
      config,
      '--ro-bind',
      '/w/.git/hooks',
      '/w/.git/hooks',
      '--',
      'true',
    ]);

  it('leaves out the read-only bind of that file alone, and runs no hook (after what the runtime gives git)', () => {
    const read = readBwrapCommand(
      withWritableGitConfig(fenced('--setenv', 'GIT_CONFIG_PARAMETERS', "'http.proxyAuthMethod=basic'"), config)!,
    );
    expect(read.options).not.toContainEqual(['--ro-bind', config, config]);
    expect(read.options).toContainEqual(['--ro-bind', '/w/.git/hooks', '/w/.git/hooks']);
    expect(read.options.filter(([name]) => name === '--setenv')).toEqual([
      ['--setenv', 'GIT_CONFIG_PARAMETERS', "'http.proxyAuthMethod=basic' 'core.hooksPath'='/dev/null'"],
    ]);
    expect(read.command).toEqual(['true']);
    expect(readBwrapCommand(withWritableGitConfig(fenced(), config)!).options).toContainEqual([
      '--setenv',
      'GIT_CONFIG_PARAMETERS',
      "'core.hooksPath'='/dev/null'",
    ]);
  });

  it('has no such form where the file is not bound read-only, or the command is not bubblewrap’s', () => {
    expect(withWritableGitConfig(fenced(), '/other/.git/config')).toBeUndefined();
    expect(withWritableGitConfig(quote(['env', '/usr/bin/sandbox-exec', '-p', '(version 1)', 'true']), config)).toBeUndefined();
  });
});
