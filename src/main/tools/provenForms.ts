import { analyzeCommand, type AnalyzeCommandOptions } from '../shell/analyzeCommand';
import { analysisStaysLocal } from '../shell/commandProofs';
import { rewritesOnlyPlainGitConfig } from '../shell/gitConfigRewrite';
import type { WrapOptions } from '../sandbox/commandSandbox';

/**
 * What the shell analysis proves of a line that lets the sandbox run it in a form fitted to it
 * (commandSandbox.ts), as run_command runs it:
 * - proved local, it runs without the proxy bridges: nothing in its network namespace answers, so a
 *   proof gone wrong is a connection refused, never one let through;
 * - proved to be one git command that changes only plain settings (a branch deleted, a remote added),
 *   it runs with .git/config writable, and a change that is not plain is put back after it.
 */
export function provenForms(command: string, where: AnalyzeCommandOptions): Pick<WrapOptions, 'staysLocal' | 'plainGitConfig'> {
  let analysis;
  try {
    analysis = analyzeCommand(command, where);
  } catch {
    return { staysLocal: false, plainGitConfig: false };
  }
  return { staysLocal: analysisStaysLocal(analysis), plainGitConfig: rewritesOnlyPlainGitConfig(analysis, where) };
}
