import path from 'node:path';
import type { GitContext } from './classifyGit';
import type { InvocationContext } from './classifyInvocation';
import { findsWorkspaceRepository, workspaceRepositoryFetchesLazily } from './gitRepositoryAt';
import type { ProgramResolver } from './programResolver';
import type { Cwd } from './readTargets';
import type { Word } from './readWord';

/**
 * Where the commands of a line run, while every place they may run is known to be inside the
 * workspace: each cd, pushd, popd and `set -P` moves it or loses it, and relative paths are read from it.
 */
export class WorkingDirectory {
  /** Where commands run now; null once it may be outside the workspace or is unknown. */
  current: Cwd | null;
  /** `set -P`: cd resolves symlinks before `..` from here on. */
  private physical = false;
  /** The place the last cd left the shell in, while nothing else has moved it. */
  private lastCd: Cwd | null = null;
  private readonly cdpathSet = Boolean(process.env.CDPATH);

  constructor(
    private readonly resolver: ProgramResolver,
    start: string,
  ) {
    this.current = resolver.isInsideWorkspace(start) ? { dir: start, certain: true } : null;
  }

  /**
   * Walks what follows the head of a list (`a && b`, `a; b`). After `cd dir &&` the shell is surely in
   * dir for what the && runs (the cd succeeded); after that, it may be in either place again.
   */
  afterListHead(headIsCommand: boolean, operator: string | undefined, walkRest: () => void): void {
    const afterCd = this.current !== null && this.current === this.lastCd && headIsCommand;
    const uncertain = this.current;
    if (afterCd && operator === '&&' && uncertain) this.current = { dir: uncertain.dir, certain: true };
    const certain = this.current;
    walkRest();
    if (afterCd && this.current === certain) this.current = uncertain;
  }

  /** What a program the line runs does to where the shell is: `program` is its recognised name. */
  ran(program: string, args: readonly Word[], readOnly: boolean): void {
    if (program === 'set' && args.some((word) => /^-[^-]*P/.test(word.text) || word.text === 'physical')) this.physical = true;
    if (program === 'cd' || program === 'pushd') {
      // After a cd into the workspace the shell may be in either place (the cd can fail or be
      // skipped), both inside; relative paths after it are no longer certain.
      const operand = args.find((word) => !word.text.startsWith('-'));
      const from = this.current;
      // cd -P (or after set -P) follows symlinks before `..`: where it lands is the kernel's business.
      const physical = this.physical || args.some((word) => /^-[LPe@]*P/.test(word.text));
      this.current =
        readOnly && operand && from && !physical
          ? { dir: path.resolve(from.dir, operand.text), certain: false, alternatives: [from.dir, ...(from.alternatives ?? [])] }
          : null;
      this.lastCd = this.current;
    } else if (program === 'popd') {
      this.current = null;
    }
  }

  /** Where a program's arguments are judged from: nowhere known once a wrapper changed directory (env -C, sudo -D). */
  contextFor(changesDirectory: boolean): InvocationContext & GitContext {
    const cwd = changesDirectory ? null : this.current;
    const resolver = this.resolver;
    return {
      cwdInWorkspace: cwd !== null,
      directoryInWorkspace: (dir: string): boolean => {
        if (dir.startsWith('~')) return false;
        let target: string;
        if (path.isAbsolute(dir)) target = dir;
        else {
          // A relative cd also searches CDPATH, which can lead anywhere.
          if (!cwd?.certain || (this.cdpathSet && !/^\.\.?(\/|$)/.test(dir))) return false;
          target = path.resolve(cwd.dir, dir);
        }
        return resolver.isInsideWorkspace(target);
      },
      gitRepositoryIsOwn: (dir: string): boolean => cwd !== null && findsWorkspaceRepository(resolver.workspaceRoot, cwd.dir, dir),
      fetchesLazily: (): boolean => workspaceRepositoryFetchesLazily(resolver.workspaceRoot),
    };
  }
}
