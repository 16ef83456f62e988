import { partRiskLabels, type CommandPart } from '../../../../shared/commandParts';
import type { ApprovalView } from '../../../../shared/session';

/**
 * The simple commands the shell parser found in a command line, each with what it does and its risk
 * (as main worked them out), or a warning when the line could not be pinned down.
 */
export function CommandParts({ commands, parts }: { commands: ApprovalView['commands']; parts?: readonly CommandPart[] | undefined }) {
  if (commands === undefined) return null;
  if (commands === null) {
    return (
      <p className="command-parts unpinned" data-testid="permission-commands" data-pinned="false">
        This command could not be pinned down, so its parts could not be checked one by one. Read it in full above before allowing it.
      </p>
    );
  }
  if (commands.length === 0) return null;
  // Parts come with the words the analysis found; a request logged before parts were recorded has only the words.
  const described = parts && parts.length === commands.length ? parts : undefined;
  return (
    <div className="command-parts" data-testid="permission-commands" data-pinned="true">
      <span className="faint">{commands.length === 1 ? 'Runs' : `Runs ${commands.length} commands`}:</span>
      <ol>
        {commands.map((words, index) => {
          const part = described?.[index];
          return (
            <li key={index} className={part ? `part-risk-${part.risk}` : undefined} data-testid="permission-part" data-risk={part?.risk}>
              <span className="part-words mono">
                {words.length === 0 ? (
                  <span className="faint">(only redirections)</span>
                ) : (
                  words.map((word, wordIndex) => (
                    <span key={wordIndex} className="word">
                      {word}
                    </span>
                  ))
                )}
              </span>
              {part && (
                <span className="part-effect">
                  <span className="part-risk-tag">{partRiskLabels[part.risk]}</span>
                  <span className="faint">{part.effects.map((effect) => effect.text).join('; ')}</span>
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
