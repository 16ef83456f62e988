import { describe, expect, it } from 'vitest';
import { couldBeLongOption, scanOptions, type OptionSpec } from './scanOptions';

const timeout: OptionSpec = {
  shortWithValue: 'sk',
  shortFlags: 'v',
  longWithValue: ['signal', 'kill-after'],
  longFlags: ['preserve-status', 'foreground', 'verbose'],
  stopAtFirstOperand: true,
};

describe('scanOptions', () => {
  it('stops at the first operand in "+" mode, as wrappers do', () => {
    const scan = scanOptions(['-s', 'KILL', '--kill-after=2', '5', 'sleep', '-v'], timeout);
    expect(scan).toMatchObject({ ok: true, firstOperand: 3 });
    if (!scan.ok) return;
    expect(scan.options.map((option) => [option.name, option.value])).toEqual([
      ['s', 'KILL'],
      ['kill-after', '2'],
    ]);
    expect(scan.operands.map((operand) => operand.value)).toEqual(['5', 'sleep', '-v']);
  });

  it('reads attached short values and clusters', () => {
    const scan = scanOptions(['-vsKILL', '5'], timeout);
    expect(scan.ok && scan.options.map((option) => [option.name, option.value])).toEqual([
      ['v', undefined],
      ['s', 'KILL'],
    ]);
  });

  it('completes unambiguous abbreviations of long options, as getopt_long does', () => {
    const scan = scanOptions(['--sig', 'TERM', '--fore', '5', 'x'], timeout);
    expect(scan.ok && scan.options.map((option) => option.name)).toEqual(['signal', 'foreground']);
  });

  it('fails on unknown or ambiguous options, and on a missing value', () => {
    expect(scanOptions(['--frobnicate', '5'], timeout).ok).toBe(false);
    expect(scanOptions(['-x', '5'], timeout).ok).toBe(false);
    expect(scanOptions(['--', '5'], { ...timeout }).ok).toBe(true);
    expect(scanOptions(['-s'], timeout).ok).toBe(false);
    expect(scanOptions(['--preserve-status=1'], timeout).ok).toBe(false);
    expect(scanOptions(['--ver'], { longFlags: ['verbose', 'version'] }).ok).toBe(false);
  });

  it('ends options at --', () => {
    const scan = scanOptions(['--', '-s', 'x'], timeout);
    expect(scan.ok && scan.firstOperand).toBe(1);
    const mixed = scanOptions(['a', '--', '-b'], { shortFlags: 'b' });
    expect(mixed.ok && mixed.operands.map((operand) => operand.value)).toEqual(['a', '-b']);
  });

  it('mixes options and operands when not in "+" mode', () => {
    const scan = scanOptions(['in', '-c', 'out'], { shortFlags: 'c' });
    expect(scan.ok && scan.operands.map((operand) => operand.value)).toEqual(['in', 'out']);
  });

  it('reads -N as an option where the program takes one (nice -10)', () => {
    const scan = scanOptions(['-10', 'make'], { shortWithValue: 'n', numericOption: true, stopAtFirstOperand: true });
    expect(scan.ok && scan.firstOperand).toBe(1);
  });

  it('takes optional values only when attached', () => {
    const scan = scanOptions(['-i{}', '-I', 'X', '--replace', 'cmd'], {
      shortWithValue: 'I',
      shortOptionalValue: 'i',
      longOptionalValue: ['replace'],
      stopAtFirstOperand: true,
    });
    expect(scan.ok && scan.options.map((option) => [option.name, option.value])).toEqual([
      ['i', '{}'],
      ['I', 'X'],
      ['replace', undefined],
    ]);
  });
});

describe('scanOptions: where values come from', () => {
  const jq = { shortFlags: 'n', shortWithValue: 'f', longWithValue: ['indent'], longWithTwoValues: ['rawfile', 'arg'] };

  it('takes two values for an option that names something and gives it a value (jq --rawfile NAME FILE)', () => {
    const scan = scanOptions(['-n', '--rawfile', 'x', '/etc/passwd', '--arg', 'a', '1', '.'], jq);
    expect(scan.ok && scan.options.map((option) => [option.name, option.value, option.valueIndex])).toEqual([
      ['n', undefined, undefined],
      ['rawfile', '/etc/passwd', 3],
      ['arg', '1', 6],
    ]);
    expect(scan.ok && scan.operands).toEqual([{ value: '.', index: 7 }]);
    expect(scanOptions(['--rawfile', 'x'], jq).ok).toBe(false);
    expect(scanOptions(['--rawfile=x', 'y'], jq).ok).toBe(false);
  });

  it('says which argument a value came from when it is not attached', () => {
    const scan = scanOptions(['-f', 'a', '-fb', '--indent', '2', '--indent=3'], jq);
    expect(scan.ok && scan.options.map((option) => [option.value, option.valueIndex])).toEqual([
      ['a', 1],
      ['b', undefined],
      ['2', 4],
      ['3', undefined],
    ]);
  });

  it('reads the same spec the same way every time it is asked', () => {
    const spec = { longFlags: ['verbose'], longWithValue: ['file'] };
    for (let i = 0; i < 3; i++) {
      const scan = scanOptions(['--verb', '--fi=x'], spec);
      expect(scan.ok && scan.options.map((option) => [option.name, option.value])).toEqual([
        ['verbose', undefined],
        ['file', 'x'],
      ]);
    }
  });
});

describe('couldBeLongOption', () => {
  it('matches the option, its = form and its abbreviations', () => {
    expect(couldBeLongOption('--output', 'output')).toBe(true);
    expect(couldBeLongOption('--output=x', 'output')).toBe(true);
    expect(couldBeLongOption('--out', 'output')).toBe(true);
    expect(couldBeLongOption('--o=x', 'output')).toBe(true);
  });

  it('does not match other options, operands or --', () => {
    expect(couldBeLongOption('--oneline', 'output')).toBe(false);
    expect(couldBeLongOption('output', 'output')).toBe(false);
    expect(couldBeLongOption('--', 'output')).toBe(false);
    expect(couldBeLongOption('-o', 'output')).toBe(false);
  });
});
