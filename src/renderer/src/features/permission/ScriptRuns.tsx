import type { ScriptRun } from '../../../../shared/scriptRun';

/**
 * What the command's runners run, as the workspace's files say today: the package.json script behind
 * `npm test` (with its pre and post scripts), the recipe behind `make`, the options pytest's
 * configuration adds. A step this session changed is marked: the person is not allowing what they
 * wrote, but what the agent made of it. A file that could not be read says so.
 */
export function ScriptRuns({ runs }: { runs: readonly ScriptRun[] | undefined }) {
  if (!runs || runs.length === 0) return null;
  return (
    <section aria-label="What it runs" className="script-runs" data-testid="permission-runs">
      <h3>What it runs</h3>
      {runs.map((run) => (
        <div key={`${run.command}\0${run.file}`} className="script-run" data-testid="permission-run" data-file={run.file}>
          <p className="script-run-head">
            <span className="mono">{run.command}</span> runs, from <span className="mono">{run.file}</span>
            {run.steps.length > 0 ? ':' : ''}
          </p>
          {run.problem && (
            <p className="script-problem" data-testid="permission-run-problem">
              Not known what it runs: {run.problem}.
            </p>
          )}
          {run.steps.length > 0 && (
            <ol className="script-steps">
              {run.steps.map((step) => (
                <li key={step.name} data-testid="permission-run-step" data-changed={step.changed ?? false}>
                  <span className="mono script-step-name">{step.name}</span>
                  {step.changed && (
                    <span
                      className="badge script-changed"
                      data-testid="permission-run-changed"
                      title="Not as it was when this session started"
                    >
                      changed in this session
                    </span>
                  )}
                  <pre className="code-block wrap script-step-text">{step.text}</pre>
                </li>
              ))}
            </ol>
          )}
          {run.note && <p className="faint script-note">{run.note[0]!.toUpperCase() + run.note.slice(1)}.</p>}
        </div>
      ))}
    </section>
  );
}
