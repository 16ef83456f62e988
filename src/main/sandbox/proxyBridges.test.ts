import { describe, expect, it } from 'vitest';
import { withoutProxyBridges } from './sandboxRuntime';

// The library writes the bridges into the script its bubblewrap runs (buildSandboxCommand in
// sandbox-runtime's linux-sandbox-utils): two socat lines, then the trap that kills them, then the
// command. A profile's real command is taken apart in runCommand.sandbox.test.ts; these are its shape.
const script = (bridges: string[]) =>
  `bwrap --unshare-net --bind /tmp/claude-http-ab12.sock /tmp/claude-http-ab12.sock -- /usr/bin/bash -c '/usr/bin/bash -c '"'"'${bridges.join('')}trap '"'"'"'"'"'"'"'"'rc=$?; kill %1 %2 2>/dev/null; exit $rc'"'"'"'"'"'"'"'"' EXIT\napply-seccomp /usr/bin/bash -c cmd'"'"''`;
const http = 'socat TCP-LISTEN:3128,fork,reuseaddr UNIX-CONNECT:/tmp/claude-http-ab12.sock >/dev/null 2>&1 &\n';
const socks = 'socat TCP-LISTEN:1080,fork,reuseaddr UNIX-CONNECT:/tmp/claude-socks-cd34.sock >/dev/null 2>&1 &\n';

describe('withoutProxyBridges', () => {
  it('takes out the two bridge lines and nothing else', () => {
    expect(withoutProxyBridges(script([http, socks]))).toBe(script([]));
  });

  it('takes out the bridges when socat is named by the absolute path Tether gives the runtime (programSearchPath.ts)', () => {
    const both = script([`/usr/bin/${http}`, `/usr/bin/${socks}`]);
    expect(withoutProxyBridges(both)).toBe(script([]));
  });

  it('leaves the command to run whole when the bridges are not exactly as expected', () => {
    expect(withoutProxyBridges(script([http]))).toBeUndefined();
    expect(withoutProxyBridges(script([]))).toBeUndefined();
    expect(withoutProxyBridges(script([http, socks, http]))).toBeUndefined();
    // A socat path the library had to quote is not what Tether gives it; another port is not a bridge of ours.
    expect(withoutProxyBridges(script([`'/opt/my bin/socat' ${http.slice('socat '.length)}`, socks]))).toBeUndefined();
    expect(withoutProxyBridges(script([http.replace('socat', 'socat2'), socks]))).toBeUndefined();
    expect(withoutProxyBridges(script([http.replace('3128', '8080'), socks]))).toBeUndefined();
  });
});
