import type { CommandAnalysis, SimpleCommand } from './commandAnalysis';
import { describeParts } from './describeParts';
import { analyzeCommand, type AnalyzeCommandOptions } from './analyzeCommand';
import { sendsData } from './sendsData';

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

/** commandStaysLocal of a line already analysed. */
export function analysisStaysLocal(analysis: CommandAnalysis): boolean {
  return everyPartOf(analysis, (part) => !part.mayReachNetwork);
}

function everyPart(command: string, where: AnalyzeCommandOptions, holds: (part: SimpleCommand) => boolean): boolean {
  try {
    return everyPartOf(analyzeCommand(command, where), holds);
  } catch {
    return false;
  }
}

function everyPartOf(analysis: CommandAnalysis, holds: (part: SimpleCommand) => boolean): boolean {
  return analysis.unpinnable === undefined && analysis.commands.length > 0 && analysis.commands.every(holds);
}

/**
 * What the line would send out, for a question's words: each part that sends data (shell/sendsData.ts),
 * said as describeParts says it ("curl sends its input to example.com"). A line the analysis cannot
 * read may send anything: it says so.
 */
export function whatLineSends(command: string, where: AnalyzeCommandOptions): string[] {
  try {
    const analysis = analyzeCommand(command, where);
    if (analysis.unpinnable !== undefined) return ['the command cannot be pinned down, so it may send anything anywhere'];
    const parts = describeParts(analysis.commands);
    return analysis.commands.flatMap((part, index) => {
      if (sendsData(part) === undefined) return [];
      const said = parts[index]?.effects.filter((effect) => effect.risk === 'sends').map((effect) => effect.text) ?? [];
      return said.length > 0 ? said : [sendsData(part)!];
    });
  } catch {
    return [];
  }
}
