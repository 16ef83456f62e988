import type { PlanStep } from '../../src/shared/plan';
import type { Terminal } from '../../src/main/terminal/terminal';
import { openWorkspace } from '../../src/main/workspace/paths';
import type { ToolContext } from '../../src/main/tools/defineTool';

/** A ToolContext for tests, plus what the tool did with it. */
export interface TestToolContext extends ToolContext {
  /** Every chunk passed to onOutput, in order. */
  chunks: string[];
  /** Every plan passed to setPlan, in order. */
  plans: PlanStep[][];
  /** Aborts `signal`, as a person stopping the session would. */
  abort(reason?: unknown): void;
}

/**
 * Builds a ToolContext over a real workspace (the real path guard) for a tool's tests. The
 * terminal throws unless one is given, so a tool that should not run commands fails loudly.
 */
export function makeToolContext(workspaceRoot: string, overrides: Partial<ToolContext> = {}): TestToolContext {
  const controller = new AbortController();
  const chunks: string[] = [];
  const plans: PlanStep[][] = [];
  const refusingTerminal: Terminal = {
    run: () => Promise.reject(new Error('This test context has no terminal; pass one in overrides.terminal.')),
    dispose: () => undefined,
  };
  return {
    workspace: openWorkspace(workspaceRoot),
    terminal: refusingTerminal,
    sessionId: 'test-session',
    callId: 'test-call',
    signal: controller.signal,
    onOutput: (chunk) => void chunks.push(chunk),
    setPlan: (steps) => void plans.push(steps.map((step) => ({ ...step }))),
    canRead: () => true,
    ...overrides,
    chunks,
    plans,
    abort: (reason) => controller.abort(reason),
  };
}
