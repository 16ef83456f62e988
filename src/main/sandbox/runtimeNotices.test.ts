import { describe, expect, it } from 'vitest';
import { withoutRuntimeNotices } from './runtimeNotices';

const agent =
  'Picked up JAVA_TOOL_OPTIONS: -javaagent:/app/node_modules/@anthropic-ai/sandbox-runtime/vendor/java-proxy-agent/srt-proxy-agent.jar';

describe('withoutRuntimeNotices', () => {
  it("takes out the JVM's line about the runtime's proxy agent, in a PTY's CRLF too, and keeps the rest in order", () => {
    expect(withoutRuntimeNotices(`${agent}\nHello from Java\n`)).toBe('Hello from Java\n');
    expect(withoutRuntimeNotices(`compiling\r\n${agent}\r\ndone\r\n`)).toBe('compiling\r\ndone\r\n');
  });

  it("keeps a line that names the person's own options too, another agent, or the words inside other text", () => {
    const own = `${agent} -Xmx2g`;
    const other = 'Picked up JAVA_TOOL_OPTIONS: -javaagent:/opt/agents/tracing.jar';
    const quoted = `echo "${agent}"`;
    for (const line of [own, other, quoted]) expect(withoutRuntimeNotices(`${line}\n`)).toBe(`${line}\n`);
  });
});
