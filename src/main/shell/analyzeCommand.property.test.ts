import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandAnalysis } from './commandAnalysis';
import { isDangerousVariable } from './dangerousVariable';
import { createShellTestbed, type ShellTestbed } from '../../../test/support/shellTestbed';

let bed: ShellTestbed;

beforeAll(async () => {
  bed = await createShellTestbed();
});

afterAll(() => {
  bed.dispose();
});

const readsOnlyAsAWhole = (analysis: CommandAnalysis): boolean =>
  !analysis.unpinnable && analysis.commands.length > 0 && analysis.commands.every((c) => c.readOnly);

/** Simple commands, some read-only and some not, all pinned down on their own. */
const simpleCommand = fc.constantFrom(
  'ls -la',
  'cat README.md',
  'grep -rn TODO src',
  'git status',
  'git log --oneline -5',
  'wc -l f',
  'echo hello',
  'rg -n foo',
  "sed -n '1,5p' f",
  'rm -rf build',
  'npm test',
  'git push',
  'make',
  'curl https://example.com',
  'touch x',
  'node app.js',
);

const operator = fc.constantFrom(' && ', ' || ', '; ', ' | ', '\n');

/** A pinned-down line: simple commands joined by operators. */
const pinnedLine = fc
  .array(simpleCommand, { minLength: 1, maxLength: 4 })
  .chain((commands) =>
    fc
      .array(operator, { minLength: commands.length - 1, maxLength: commands.length - 1 })
      .map((ops) => commands.map((command, i) => (i === 0 ? command : `${ops[i - 1]}${command}`)).join('')),
  );

const doubleQuoted = (text: string): string => `"${text.replace(/["\\$`]/g, '\\$&')}"`;

describe('properties of the analysis', () => {
  it('the lines built from simple commands are pinned down, so the properties below are about the wrapping', () => {
    fc.assert(
      fc.property(pinnedLine, (line) => {
        expect(bed.analyze(line).unpinnable).toBeUndefined();
      }),
    );
  });

  it('wrapping any command in eval "..." makes it unpinnable', () => {
    fc.assert(
      fc.property(pinnedLine, (line) => {
        expect(bed.analyze(`eval ${doubleQuoted(line)}`).unpinnable).toMatch(/eval/);
      }),
    );
  });

  it('a command substitution as the program makes any line unpinnable, wherever it stands', () => {
    fc.assert(
      fc.property(pinnedLine, simpleCommand, fc.boolean(), (line, inner, before) => {
        const smuggled = `$(${inner}) --flag`;
        const analysis = bed.analyze(before ? `${smuggled} && ${line}` : `${line} && ${smuggled}`);
        expect(analysis.unpinnable).toMatch(/program name/);
      }),
    );
  });

  it('bash -c "$x" (or sh, zsh) makes any line unpinnable', () => {
    fc.assert(
      fc.property(
        pinnedLine,
        fc.constantFrom('bash', 'sh', 'zsh'),
        fc.constantFrom('$x', '${x}', '$(cat f)', 'ls $dir'),
        (line, shell, script) => {
          expect(bed.analyze(`${line}; ${shell} -c "${script}"`).unpinnable).toBeDefined();
        },
      ),
    );
  });

  it('a dangerous variable in front of any command makes it unpinnable', () => {
    const dangerous = fc.constantFrom(
      'PATH',
      'LD_PRELOAD',
      'DYLD_INSERT_LIBRARIES',
      'NODE_OPTIONS',
      'PYTHONPATH',
      'GIT_SSH_COMMAND',
      'BASH_ENV',
      'IFS',
      'PERL5OPT',
      'GIT_EXTERNAL_DIFF',
    );
    fc.assert(
      fc.property(pinnedLine, dangerous, fc.constantFrom('', 'env ', 'sudo '), (line, name, via) => {
        expect(isDangerousVariable(name)).toBe(true);
        const [first, ...rest] = line.split(' && ');
        expect(bed.analyze([`${via}${name}=/tmp/x ${first}`, ...rest].join(' && ')).unpinnable).toMatch(new RegExp(name));
      }),
    );
  });

  it('a line with any unpinnable part is never read-only as a whole, and none of its commands is read-only', () => {
    const unpinnablePart = fc.constantFrom(
      'eval ls',
      '$x',
      'source ./env.sh',
      'ls &&',
      'echo ${x@P}',
      'PATH=. ls',
      'curl x | bash',
      'exec cat f',
      'alias ls=rm',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(simpleCommand, unpinnablePart), { minLength: 1, maxLength: 4 }), operator, (parts, op) => {
        const analysis = bed.analyze(parts.join(op === '\n' ? '; ' : op));
        if (!analysis.unpinnable) return;
        expect(readsOnlyAsAWhole(analysis)).toBe(false);
        for (const command of analysis.commands) expect(command.readOnly).toBe(false);
      }),
    );
  });

  it('a compound line reads only exactly when every part does', () => {
    fc.assert(
      fc.property(simpleCommand, simpleCommand, operator, (a, b, op) => {
        const whole = readsOnlyAsAWhole(bed.analyze(`${a}${op}${b}`));
        expect(whole).toBe(readsOnlyAsAWhole(bed.analyze(a)) && readsOnlyAsAWhole(bed.analyze(b)));
      }),
    );
  });

  it('a command that writes a file is never read-only', () => {
    fc.assert(
      fc.property(
        pinnedLine,
        fc.constantFrom('>', '>>', '&>', '>|', '2>'),
        fc.constantFrom('out.txt', '../x', '/etc/passwd', '"$f"'),
        (line, redirect, target) => {
          const analysis = bed.analyze(`{ ${line.replace(/\n/g, '; ')}; } ${redirect} ${target}`);
          for (const command of analysis.commands) {
            expect(command.writesTo.length).toBeGreaterThan(0);
            expect(command.readOnly).toBe(false);
          }
        },
      ),
    );
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
        const analysis = bed.analyze(text);
        expect(Array.isArray(analysis.commands)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on shell-looking noise', () => {
    const token = fc.constantFrom(
      'ls',
      'a',
      '$x',
      '$(',
      ')',
      '`',
      '"',
      "'",
      '{',
      '}',
      '(',
      '((',
      '))',
      '[[',
      ']]',
      ';',
      '&&',
      '|',
      '<<',
      'EOF',
      '\n',
      '\\',
      '$((',
      '${',
      '#',
      '=',
      'x=',
      '<(',
      '>',
      '2>&1',
      'if',
      'then',
      'fi',
      'for',
      'do',
      'done',
      'case',
      'in',
      'esac',
      ' ',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 25 }), (tokens) => {
        const analysis = bed.analyze(tokens.join(' '));
        if (analysis.unpinnable) for (const command of analysis.commands) expect(command.readOnly).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
