import type { ApprovalView } from '../../../../shared/session';

/** The simple commands the shell parser found in a command line, or a warning when it could not. */
export function CommandParts({ commands }: { commands: ApprovalView['commands'] }) {
  if (commands === undefined) return null;
  if (commands === null) {
    return (
      <p className="command-parts unpinned" data-testid="permission-commands" data-pinned="false">
        This command could not be pinned down, so its parts could not be checked one by one. Read it in full above before allowing it.
      </p>
    );
  }
  if (commands.length === 0) return null;
  return (
    <div className="command-parts" data-testid="permission-commands" data-pinned="true">
      <span className="faint">{commands.length === 1 ? 'Runs' : `Runs ${commands.length} commands`}:</span>
      <ol>
        {commands.map((words, index) => (
          <li key={index} className="mono">
            {words.map((word, wordIndex) => (
              <span key={wordIndex} className="word">
                {word}
              </span>
            ))}
          </li>
        ))}
      </ol>
    </div>
  );
}
