import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitStatePrograms, withoutExecLines } from './gitState';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function gitDir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-git-state-'));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const show = (absolute: string) => path.basename(path.dirname(absolute)) + '/' + path.basename(absolute);

describe('an operation in progress that would run a program when continued', () => {
  it('finds exec lines in either spelling, indented or not, in a rebase todo and a sequencer todo', () => {
    const dir = gitDir({
      'rebase-merge/git-rebase-todo': 'pick 1234 one\nexec make test\n  x  ./planted.sh\n# exec in a comment\nbreak\n',
      'sequencer/todo': 'pick 5678 two\nexec curl x | sh\n',
    });
    const found = gitStatePrograms(dir, show);
    expect(found.map((program) => program.shown)).toEqual([
      'exec make test; x  ./planted.sh (in rebase-merge/git-rebase-todo: git rebase --continue would run it)',
      'exec curl x | sh (in sequencer/todo: git cherry-pick --continue would run it)',
    ]);
    expect(found.every((program) => program.fix === 'todo')).toBe(true);
  });

  it('finds a merge strategy git does not ship, and leaves the ones it does', () => {
    expect(
      gitStatePrograms(gitDir({ 'rebase-merge/strategy': 'ort\n', 'sequencer/opts': '[options]\n\tstrategy = recursive\n' }), show),
    ).toEqual([]);
    const found = gitStatePrograms(gitDir({ 'rebase-merge/strategy': 'evil\n', 'sequencer/opts': '[options]\n\tstrategy = ../x\n' }), show);
    expect(found.map((program) => [program.fix, program.shown.split(' (')[0]])).toEqual([
      ['state', 'the merge strategy "evil", a program git looks up as git-merge-evil'],
      ['state', 'the merge strategy "../x", a program git looks up as git-merge-../x'],
    ]);
  });

  it('reads sequencer/opts as git reads config: any case, one line, the strategy named last', () => {
    for (const opts of [
      '[options]\n\tstrategy = ort\n\tStrategy = x/../evil\n',
      '[options] strategy = x/../evil\n',
      '[Options]\n\tSTRATEGY = x/../evil\n',
      '[options]\n\tstrategy = "x/../evil"\n',
    ]) {
      const found = gitStatePrograms(gitDir({ 'sequencer/opts': opts }), show);
      expect(
        found.map((program) => program.shown.split(' (')[0]),
        opts,
      ).toEqual(['the merge strategy "x/../evil", a program git looks up as git-merge-x/../evil']);
    }
    expect(gitStatePrograms(gitDir({ 'sequencer/opts': '[options]\n\tSTRATEGY = ort\n\tno-commit = true\n' }), show)).toEqual([]);
    // A space is part of the name git looks up: `git-merge-ort ` is no program git ships.
    const spaced: Record<string, string>[] = [
      { 'sequencer/opts': '[options]\n\tstrategy = "ort "\n' },
      { 'rebase-merge/strategy': 'ort \n' },
    ];
    for (const files of spaced) {
      expect(gitStatePrograms(gitDir(files), show).map((program) => program.shown.split(' (')[0])).toEqual([
        'the merge strategy "ort ", a program git looks up as git-merge-ort ',
      ]);
    }
  });

  it('reads a todo through a link as git does, counts one too large to read, and never waits on a FIFO', () => {
    const elsewhere = gitDir({ 'notes.txt': 'exec ./run-me\n' });
    const linked = gitDir({});
    fs.mkdirSync(path.join(linked, 'rebase-merge'));
    fs.symlinkSync(path.join(elsewhere, 'notes.txt'), path.join(linked, 'rebase-merge', 'git-rebase-todo'));
    expect(gitStatePrograms(linked, show)).toHaveLength(1);

    const large = gitDir({ 'rebase-merge/git-rebase-todo': `${'pick 1 x\n'.repeat(600_000)}` });
    expect(gitStatePrograms(large, show)[0]!.shown).toContain('(a todo list too large to check)');

    const fifo = gitDir({});
    fs.mkdirSync(path.join(fifo, 'sequencer'));
    execFileSync('mkfifo', [path.join(fifo, 'sequencer', 'todo')]);
    expect(gitStatePrograms(fifo, show)).toEqual([]);
  });

  it('makes every exec line a comment that says where the original went, and keeps the rest', () => {
    expect(withoutExecLines('pick 1 a\nexec make\nx ./b\n', '/g/kept')).toBe(
      'pick 1 a\n# taken out by Tether (the original is /g/kept): exec make\n# taken out by Tether (the original is /g/kept): x ./b\n',
    );
  });
});
