import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyInvocation, type InvocationContext } from './classifyInvocation';
import { READ_ONLY_PROGRAM_NAMES, readOnlyProgram, type ReadOnlyProgram } from './readOnlyPrograms';
import { argumentReads, type Cwd } from './readTargets';
import { literalWord } from './readWord';

// The table of read-only programs, entry by entry: every option it knows gives the verdict its role
// says, an option it does not know makes the line not read-only, and every option whose value is a
// file it reads yields that file as a read target, in every form getopt_long accepts.

const inside: InvocationContext = { cwdInWorkspace: true, directoryInWorkspace: () => true };
const cwd: Cwd = { dir: '/w/project', certain: true };

/** How `words` (program first, each a literal word) is judged, and the places it reads. */
function judge(words: readonly string[]) {
  const [name, ...rest] = words;
  const args = rest.map(literalWord);
  const classified = classifyInvocation(name!, args, inside);
  const reads = argumentReads(name!, args, cwd, classified).map((target) => target.path ?? `(${target.shown})`);
  return { readOnly: classified.readOnly, local: classified.local, reads };
}

const names = (text: string | undefined): string[] => (text ? text.split(' ') : []);

/** The table entries read by options and operands (not the custom readers, not echo and its kin). */
const TABLE_ENTRIES = READ_ONLY_PROGRAM_NAMES.flatMap((name) => {
  const entry = readOnlyProgram(name)!;
  return 'read' in entry || entry.noOptions ? [] : [[name, entry] as const];
});

/** Operands that make a line of the program complete: its pattern, script or filter. */
const OPERANDS: Record<string, string[]> = { grep: ['x'], egrep: ['x'], fgrep: ['x'], rg: ['x'], sed: ['p'], jq: ['.'] };

/** Every option the entry knows, as a line: the option alone, with a value where it takes one. */
function optionLines(name: string, entry: ReadOnlyProgram): { option: string; words: string[] }[] {
  const operands = OPERANDS[name] ?? [];
  const lines: { option: string; words: string[] }[] = [];
  for (const letter of entry.flags ?? '') lines.push({ option: letter, words: [name, `-${letter}`, ...operands] });
  for (const letter of entry.withValue ?? '') lines.push({ option: letter, words: [name, `-${letter}`, 'v', ...operands] });
  for (const letter of entry.optionalValue ?? '') lines.push({ option: letter, words: [name, `-${letter}`, ...operands] });
  for (const long of names(entry.long)) lines.push({ option: long, words: [name, `--${long}`, ...operands] });
  for (const long of names(entry.longWithValue)) lines.push({ option: long, words: [name, `--${long}=v`, ...operands] });
  for (const long of names(entry.longOptionalValue)) lines.push({ option: long, words: [name, `--${long}`, ...operands] });
  for (const long of names(entry.longWithTwoValues)) lines.push({ option: long, words: [name, `--${long}`, 'n', 'v', ...operands] });
  return lines;
}

/** What an option's role in the entry makes of a line holding it. */
function expected(name: string, entry: ReadOnlyProgram, option: string): { readOnly: boolean; local: boolean } {
  // sed's script from a file may run commands (its e command), not only read.
  if (name === 'sed' && (option === 'f' || option === 'file')) return { readOnly: false, local: false };
  if (names(entry.runs).includes(option)) return { readOnly: false, local: false };
  if (names(entry.writes).includes(option) || names(entry.readsNamedInside).includes(option)) return { readOnly: false, local: true };
  return { readOnly: true, local: true };
}

describe('the table of read-only programs', () => {
  it('cites where each entry comes from', () => {
    for (const name of READ_ONLY_PROGRAM_NAMES) {
      expect(readOnlyProgram(name)!.doc, name).toMatch(/--help|\(\d\)|manual|bash/);
    }
  });

  it('has no option in two places and no role naming an option it does not know', () => {
    for (const [name, entry] of TABLE_ENTRIES) {
      const known = [
        ...(entry.flags ?? ''),
        ...(entry.withValue ?? ''),
        ...(entry.optionalValue ?? ''),
        ...names(entry.long),
        ...names(entry.longWithValue),
        ...names(entry.longOptionalValue),
        ...names(entry.longWithTwoValues),
      ];
      expect(new Set(known).size, `${name} lists an option twice`).toBe(known.length);
      for (const role of [
        'reads',
        'readsList',
        'readsNamedInside',
        'writes',
        'runs',
        'followsLinks',
        'followsLinksUnless',
        'patternFrom',
      ] as const) {
        for (const option of names(entry[role])) expect(known, `${name}'s ${role} names ${option}`).toContain(option);
      }
    }
  });

  describe.each(TABLE_ENTRIES)('%s', (name, entry) => {
    it.each(optionLines(name, entry))('$words: as its role says', ({ option, words }) => {
      const verdict = judge(words);
      expect({ readOnly: verdict.readOnly, local: verdict.local }).toEqual(expected(name, entry, option));
    });

    it('is not read-only with an option it does not know', () => {
      const known = `${entry.flags ?? ''}${entry.withValue ?? ''}${entry.optionalValue ?? ''}${entry.numeric || entry.negativeNumbers ? '0123456789' : ''}`;
      const longs = [
        ...names(entry.long),
        ...names(entry.longWithValue),
        ...names(entry.longOptionalValue),
        ...names(entry.longWithTwoValues),
      ];
      const unknownLetter = fc
        .constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+'.split(''))
        .filter((letter) => !known.includes(letter));
      // A long option is known when it is one of the entry's or an abbreviation of exactly one.
      const unknownLong = fc
        .stringMatching(/^[a-z][a-z0-9-]{0,14}$/)
        .filter((written) => longs.filter((long) => long.startsWith(written)).length !== 1 && !longs.includes(written));
      const operands = OPERANDS[name] ?? [];
      fc.assert(
        fc.property(
          fc.oneof(
            unknownLetter.map((letter) => `-${letter}`),
            unknownLong.map((long) => `--${long}`),
          ),
          (option) => {
            expect(judge([name, option, ...operands]).readOnly, `${name} ${option}`).toBe(false);
          },
        ),
        { numRuns: 60, seed: 31 },
      );
    });

    const takesValue = [...(entry.withValue ?? ''), ...names(entry.longWithValue), ...names(entry.longWithTwoValues)];
    const fileOptions = [...names(entry.reads), ...names(entry.readsNamedInside), ...names(entry.readsList)].filter((option) =>
      takesValue.includes(option),
    );
    it.skipIf(fileOptions.length === 0).each(fileOptions)('reads the file its option %s names, in every form', (option) => {
      const operands = OPERANDS[name] ?? [];
      const twoValues = names(entry.longWithTwoValues).includes(option);
      const forms: [string[], string][] = [];
      if (option.length === 1) {
        forms.push([[`-${option}/etc/passwd`], '/etc/passwd'], [[`-${option}`, '../outside/f'], '/w/project/../outside/f']);
      } else if (twoValues) {
        forms.push([[`--${option}`, 'n', '/etc/passwd'], '/etc/passwd'], [[`--${option}`, 'n', 'sub/f'], '/w/project/sub/f']);
      } else {
        forms.push(
          [[`--${option}=/etc/passwd`], '/etc/passwd'],
          [[`--${option}`, '/etc/passwd'], '/etc/passwd'],
          [[`--${option}=../outside/f`], '/w/project/../outside/f'],
          [[`--${option}=sub/f`], '/w/project/sub/f'],
        );
        // The shortest abbreviation getopt_long would take for it.
        const longs = [...names(entry.long), ...names(entry.longWithValue), ...names(entry.longOptionalValue)];
        const abbreviation = [...option]
          .map((_, end) => option.slice(0, end + 1))
          .find((prefix) => longs.filter((long) => long.startsWith(prefix)).length === 1);
        if (abbreviation && abbreviation !== option) forms.push([[`--${abbreviation}=/etc/passwd`], '/etc/passwd']);
      }
      for (const [optionWords, place] of forms) {
        const words = [name, ...optionWords, ...operands];
        expect(judge(words).reads, words.join(' ')).toContain(place);
      }
    });
  });

  it('reads a value given as ~/x, the home folder the engine knows', () => {
    const args = [{ text: '~/.netrc', kind: 'dynamic' as const, splits: false, source: '~/.netrc' }];
    const reads = argumentReads(
      'date',
      [literalWord('-f'), ...args],
      cwd,
      classifyInvocation('date', [literalWord('-f'), ...args], inside),
    );
    expect(reads.map((target) => target.path)).toEqual(['~/.netrc']);
  });

  it('reads every file of a colon-separated magic list', () => {
    expect(judge(['file', '-m', 'a:/etc/passwd:../b', 'x']).reads).toEqual([
      '/w/project/a',
      '/etc/passwd',
      '/w/project/../b',
      '/w/project/x',
    ]);
  });

  it('reads files given after -- as operands, never as options', () => {
    expect(judge(['cat', '--', '--file=/etc/passwd']).reads).toEqual(['/w/project/--file=/etc/passwd']);
    expect(judge(['date', '--', '+%s'])).toMatchObject({ readOnly: true, reads: [] });
  });

  it('reads git option values as paths, whatever the option is called', () => {
    expect(judge(['git', 'blame', '--contents=/etc/passwd', 'README.md']).reads).toContain('/etc/passwd');
    expect(judge(['git', 'blame', '-S/etc/passwd', 'README.md']).reads).toContain('/etc/passwd');
    expect(judge(['git', 'log', '--format=%H', '-n5']).reads).toEqual(['/w/project/log', '/w/project/%H', '/w/project/5']);
    expect(judge(['git', 'log', '--', '--contents=/etc/passwd']).reads).toContain('/w/project/--contents=/etc/passwd');
  });

  it('reads the files find compares against and walks', () => {
    expect(judge(['find', 'src', '-newer', '/etc/passwd', '-name', '/x'])).toMatchObject({
      readOnly: true,
      reads: ['/w/project/src', '/etc/passwd'],
    });
    expect(judge(['find', '.', '-newermt', '2024-01-01']).reads).toEqual(['/w/project/.']);
    expect(judge(['find', '.', '-neweram', '/etc/passwd']).reads).toContain('/etc/passwd');
    expect(judge(['find', '-L', '.'])).toMatchObject({ readOnly: true, reads: ['(the symlinks find follows)', '/w/project/.'] });
    expect(judge(['find', '.', '-frobnicate']).readOnly).toBe(false);
    expect(judge(['find', '.', '-files0-from', 'list'])).toMatchObject({ readOnly: false, local: true });
  });
});

/**
 * The table against the programs installed here: every option an installed program's --help lists is
 * one the table knows, so an ordinary line is never refused for an option the table forgot.
 */
describe('the table against the installed programs', () => {
  const help = (name: string): string | undefined => {
    const result = spawnSync(name, ['--help'], { encoding: 'utf8', timeout: 5000 });
    return result.status === 0 ? result.stdout : undefined;
  };
  /** Lines of a help text that look like an option's but describe something else (cut's and numfmt's ranges). */
  const NOT_OPTIONS: Record<string, string[]> = { cut: ['M'], numfmt: ['M'] };
  it.each(TABLE_ENTRIES.filter(([name]) => name !== 'egrep' && name !== 'fgrep'))(
    '%s knows every option its --help lists',
    (name, entry) => {
      const text = help(name);
      if (text === undefined || !/GNU|ripgrep|file|jq|util-linux/i.test(text)) return;
      const known = new Set([
        ...(entry.flags ?? ''),
        ...(entry.withValue ?? ''),
        ...(entry.optionalValue ?? ''),
        ...names(entry.long),
        ...names(entry.longWithValue),
        ...names(entry.longOptionalValue),
        ...names(entry.longWithTwoValues),
      ]);
      const listed = new Set<string>();
      for (const line of text.split('\n')) {
        // An option's own line: it starts with blanks and a dash; its description may name others.
        const definition = /^\s{1,10}(-[^\s]+(?:,?\s+-[^\s]+)*)/.exec(line)?.[1];
        if (!definition) continue;
        for (const long of definition.matchAll(/--([a-z0-9][a-z0-9-]*)/g)) listed.add(long[1]!);
        for (const short of definition.matchAll(/(?:^|[\s,])-([A-Za-z0-9.])(?=[\s,[]|$)/g)) listed.add(short[1]!);
      }
      expect([...listed].filter((option) => !known.has(option) && !NOT_OPTIONS[name]?.includes(option))).toEqual([]);
    },
  );
});
