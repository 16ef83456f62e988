import { describe, expect, it } from 'vitest';
import { interpreterKind, isInterpreter } from '../shell/interpreters';
import { commandPrefix } from './allowAlways';

// One table of interpreters, read by the analysis and by Allow always: whatever the analysis walks
// into as an interpreter, Allow always refuses a prefix rule for, and the other way round.
describe('interpreters', () => {
  it.each([
    'bash',
    'posh',
    'yash',
    'fish',
    'nu',
    'xonsh',
    'elvish',
    'pwsh',
    'python3.12',
    'pypy3',
    'nodejs',
    'luajit',
    'Rscript',
    'osascript',
    'deno',
    'bun',
    'irb',
    'wish',
    'ruby3',
    'PHP8',
  ])('%s is an interpreter, so Allow always offers no prefix rule for it', (name) => {
    expect(isInterpreter(name)).toBe(true);
    expect(commandPrefix({ argv: [name, 'script'], wrappers: [] } as never)).toEqual({ none: `${name} runs whatever it is given` });
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])('%s, an object’s own name, is no interpreter', (name) => {
    expect(interpreterKind(name)).toBeNull();
    expect(isInterpreter(name)).toBe(false);
  });

  it.each(['git', 'npm', 'make', 'ls', 'pythonic'])('%s is not an interpreter', (name) => {
    expect(isInterpreter(name)).toBe(false);
  });
});
