import { describe, expect, it } from 'vitest';
import { invocationIn, type Frame, type Invocation, type Stdin } from './invocation';
import { literalWord, type Word } from './readWord';
import { unwrapCommand } from './unwrapCommand';

/**
 * unwrapCommand on its own: words in, data out. No parser, no file system, no analysis state;
 * the walk over a whole line is tested through analyzeCommand.
 */

const TOP: Frame = { wrappers: [], writes: [], stdin: 'inherited', blockReadOnly: null, dialect: 'bash', depth: 0, cwdUnknown: false };

const dynamic = (text: string): Word => ({ text, kind: 'dynamic', splits: true, source: text });

function unwrap(
  argv: (string | Word)[],
  stdin: Stdin = 'inherited',
): { next: ReturnType<typeof unwrapCommand>['next']; found: ReturnType<typeof unwrapCommand>['found']; invocation: Invocation } {
  const [name, ...args] = argv.map((word) => (typeof word === 'string' ? literalWord(word) : word));
  const invocation = invocationIn({ ...TOP, stdin }, true);
  const { next, found } = unwrapCommand(name!.text, args, invocation);
  return { next, found, invocation };
}

const texts = (next: unknown): string[] => (Array.isArray(next) ? (next as Word[]).map((word) => word.text) : []);

describe('unwrapCommand', () => {
  it('calls a program that runs nothing else final, and finds nothing', () => {
    expect(unwrap(['ls', '-la'])).toMatchObject({ next: 'final', found: [] });
    expect(unwrap(['git', 'status'])).toMatchObject({ next: 'final', found: [] });
  });

  it('hands back the command a wrapper runs, with what the wrapper adds to its invocation', () => {
    const env = unwrap(['env', 'FOO=1', 'make', 'build']);
    expect(texts(env.next)).toEqual(['make', 'build']);
    expect(env.invocation).toMatchObject({ wrappers: ['env'], assignments: ['FOO'], viaExec: true });
    expect(env.found).toEqual([]);

    const timeout = unwrap(['timeout', '30', 'npm', 'test']);
    expect(texts(timeout.next)).toEqual(['npm', 'test']);
    expect(timeout.invocation).toMatchObject({ wrappers: ['timeout'], viaExec: true });

    const sudo = unwrap(['sudo', 'rm', 'x']);
    expect(texts(sudo.next)).toEqual(['rm', 'x']);
    expect(sudo.invocation.blockReadOnly).toBe('sudo runs the command as another user');
  });

  it('says a wrapper given nothing to run runs alone, as itself, without counting it as its own wrapper', () => {
    const timeout = unwrap(['timeout', '5']);
    expect(timeout.next).toEqual({ alone: expect.objectContaining({ wrappers: [], viaExec: true }) });
    const env = unwrap(['env']);
    expect(env.next).toEqual({ alone: expect.objectContaining({ wrappers: [], viaExec: false }) });
  });

  it('hands a script to the analysis with the frame it runs in', () => {
    const bash = unwrap(['bash', '-c', 'rm -rf build']);
    expect(bash.next).toBe('done');
    expect(bash.found).toEqual([
      { kind: 'script', source: 'rm -rf build', frame: expect.objectContaining({ wrappers: ['bash'], dialect: 'bash', depth: 1 }) },
    ]);

    const su = unwrap(['su', '-c', 'id']);
    expect(su.found).toEqual([
      {
        kind: 'script',
        source: 'id',
        frame: expect.objectContaining({ wrappers: ['su'], dialect: 'sh', blockReadOnly: expect.any(String) }),
      },
    ]);

    const trap = unwrap(['trap', 'rm -f /tmp/x', 'EXIT']);
    expect(trap.next).toBe('final');
    expect(trap.found).toEqual([{ kind: 'script', source: 'rm -f /tmp/x', frame: expect.objectContaining({ wrappers: ['trap'] }) }]);
  });

  it('gives the reason, in order, before the script for eval, and calls eval of a dynamic string opaque', () => {
    expect(unwrap(['eval', 'ls'])).toMatchObject({
      next: 'done',
      found: [
        { kind: 'reason', text: 'eval runs a string as a command' },
        { kind: 'script', source: 'ls' },
      ],
    });
    expect(unwrap(['eval', dynamic('"$X"')])).toMatchObject({
      next: 'opaque',
      found: [{ kind: 'reason', text: 'eval runs a string as a command' }],
    });
  });

  it('hands find -exec commands over as invocations of their own, the placeholder only known when it runs', () => {
    const find = unwrap(['find', '.', '-name', '*.o', '-exec', 'rm', '{}', ';']);
    expect(find.next).toBe('final');
    expect(find.found).toHaveLength(1);
    const [exec] = find.found;
    if (exec?.kind !== 'command') throw new Error(`expected a command, got ${JSON.stringify(exec)}`);
    expect(exec.words.map((word) => [word.text, word.kind])).toEqual([
      ['rm', 'literal'],
      ['{}', 'dynamic'],
    ]);
    expect(exec.invocation).toMatchObject({ wrappers: ['find'], viaExec: true, fromParser: false, stdin: 'inherited' });
  });

  it('hands over the variable names builtins assign, arrays they make, and arithmetic they evaluate', () => {
    expect(unwrap(['read', '-a', 'parts', 'line']).found).toEqual([
      { kind: 'array', name: 'parts' },
      { kind: 'variable-name', word: literalWord('parts'), builtin: 'read' },
      { kind: 'variable-name', word: literalWord('line'), builtin: 'read' },
    ]);
    expect(unwrap(['printf', '-v', 'out', '%s', 'x']).found).toEqual([
      { kind: 'variable-name', word: literalWord('out'), builtin: 'printf -v' },
    ]);
    expect(unwrap(['let', 'i=i+1']).found).toEqual([{ kind: 'arithmetic', text: 'i=i+1' }]);
  });

  it('gives a reason for what it cannot pin down', () => {
    const reasons = (argv: (string | Word)[], stdin?: Stdin) => unwrap(argv, stdin).found.filter((finding) => finding.kind === 'reason');
    expect(reasons(['timeout', dynamic('$T'), 'ls'])).toEqual([
      { kind: 'reason', text: "timeout's duration $T is only known when it runs" },
    ]);
    expect(reasons(['env', 'LD_PRELOAD=/tmp/x.so', 'ls'])).toEqual([
      { kind: 'reason', text: 'env sets LD_PRELOAD for the command, which changes what it runs' },
    ]);
    expect(reasons(['python3'], 'pipe')).toEqual([{ kind: 'reason', text: 'python3 runs a program it reads from a pipe' }]);
    expect(reasons(['bash', '-c', dynamic('$SCRIPT')])).toEqual([
      { kind: 'reason', text: 'bash -c runs a script only known when it runs ($SCRIPT)' },
    ]);
    expect(unwrap(['env', '-S', 'ls -la']).next).toBe('opaque');
  });
});
