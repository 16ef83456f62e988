import type { SimpleCommand } from '../commandAnalysis';
import { analyzeCommand, type AnalyzeCommandOptions } from './analyzeCommand';

/**
 * What the shell analysis can prove of a whole command line, for work a command may skip rather than
 * what it may do: the rules decide that. Each holds only when every part is pinned down and passes;
 * a line the analysis cannot read (or an empty one) proves nothing.
 */

/** Every part only reads (ls, cat | grep, wc): the proof the rules trust to run it unasked. */
export function commandOnlyReads(command: string, where: AnalyzeCommandOptions): boolean {
  return everyPart(command, where, (part) => part.readOnly);
}

/** No part may reach the network (ls, cat, grep, git status...). */
export function commandStaysLocal(command: string, where: AnalyzeCommandOptions): boolean {
  return everyPart(command, where, (part) => !part.mayReachNetwork);
}

function everyPart(command: string, where: AnalyzeCommandOptions, holds: (part: SimpleCommand) => boolean): boolean {
  try {
    const analysis = analyzeCommand(command, where);
    return analysis.unpinnable === undefined && analysis.commands.length > 0 && analysis.commands.every(holds);
  } catch {
    return false;
  }
}
