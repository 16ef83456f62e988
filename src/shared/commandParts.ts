import { z } from 'zod';

/**
 * What one part of a command line does, as a person weighs it, from least to most harmful to miss:
 * it reads, changes files, runs code, deletes, or sends data out. The shell analysis in main works
 * it out from the program and its targets; the request shows it. It explains the request and
 * decides nothing: the permission engine's verdict never reads it.
 */
export const PartRisk = z.enum(['reads', 'writes', 'runs', 'deletes', 'sends']);
export type PartRisk = z.infer<typeof PartRisk>;

/** One thing a part does, in words a person reads: "curl sends out.txt to example.com". */
export const PartEffect = z.object({ risk: PartRisk, text: z.string() });
export type PartEffect = z.infer<typeof PartEffect>;

/** One simple command of a line (wrappers stripped), what it does, and the highest risk among those. */
export const CommandPart = z.object({
  /** The program and its arguments, as the analysis found them. */
  words: z.array(z.string()),
  risk: PartRisk,
  /** Highest risk first; never empty. */
  effects: z.array(PartEffect),
});
export type CommandPart = z.infer<typeof CommandPart>;

/** Lowest first: the order a badge and "Why it asks" rank parts in. */
export const partRiskOrder: readonly PartRisk[] = PartRisk.options;

/** How a person reads each risk on a badge or a part. */
export const partRiskLabels: Record<PartRisk, string> = {
  reads: 'reads',
  writes: 'changes files',
  runs: 'runs code',
  deletes: 'deletes',
  sends: 'sends data out',
};

export function partRiskRank(risk: PartRisk): number {
  return partRiskOrder.indexOf(risk);
}

/** The highest risk among a line's parts; undefined for no parts. */
export function highestPartRisk(parts: readonly Pick<CommandPart, 'risk'>[]): PartRisk | undefined {
  let highest: PartRisk | undefined;
  for (const part of parts) if (highest === undefined || partRiskRank(part.risk) > partRiskRank(highest)) highest = part.risk;
  return highest;
}

/**
 * What "Why it asks" names first: the effects above reading, riskiest first (in line order within a
 * risk), each once.
 */
export function riskiestEffects(parts: readonly CommandPart[], limit = 4): PartEffect[] {
  const seen = new Set<string>();
  const effects: PartEffect[] = [];
  for (const part of parts) {
    for (const effect of part.effects) {
      if (effect.risk === 'reads' || seen.has(effect.text)) continue;
      seen.add(effect.text);
      effects.push(effect);
    }
  }
  // A stable sort keeps the line's order among effects of one risk.
  return effects.sort((a, b) => partRiskRank(b.risk) - partRiskRank(a.risk)).slice(0, limit);
}
