import { partRiskLabels, riskiestEffects, type CommandPart } from '../../../../shared/commandParts';

/**
 * Why a request asks: for a command, what its riskiest parts do, in words ("curl sends out.txt to
 * example.com", "rm deletes out.txt"), then the permission engine's own reason.
 */
export function WhyItAsks({ parts, reason }: { parts: readonly CommandPart[] | undefined; reason: string }) {
  const effects = parts ? riskiestEffects(parts) : [];
  return (
    <>
      {effects.length > 0 && (
        <ul className="why-parts" data-testid="permission-why-parts">
          {effects.map((effect) => (
            <li key={effect.text} className={`part-risk-${effect.risk}`} data-risk={effect.risk}>
              <span className="part-risk-tag">{partRiskLabels[effect.risk]}</span>
              <span className="mono">{effect.text}</span>
            </li>
          ))}
        </ul>
      )}
      <p className={effects.length > 0 ? 'engine-reason' : undefined} data-testid="permission-reason">
        {reason}
      </p>
    </>
  );
}
