/**
 * Lines the sandbox runtime makes a command print that it would not print outside. The runtime sends
 * a JVM's connections through its proxy with a Java agent in JAVA_TOOL_OPTIONS, and every JVM (javac,
 * java, gradle, mvn) then says so on stderr, a line nobody can turn off. The model is given the output
 * as it would be outside, so the line goes when it names the runtime's agent and nothing else: with
 * other options in it (the person's own), the JVM would print a line outside too, and it stays.
 */
const RUNTIME_JAVA_AGENT = /^Picked up JAVA_TOOL_OPTIONS: -javaagent:\S*\/srt-proxy-agent\.jar\r?$/;

export function withoutRuntimeNotices(output: string): string {
  if (!output.includes('Picked up JAVA_TOOL_OPTIONS')) return output;
  return output
    .split('\n')
    .filter((line) => !RUNTIME_JAVA_AGENT.test(line))
    .join('\n');
}
