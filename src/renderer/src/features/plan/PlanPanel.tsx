import { useState } from 'react';
import type { PlanStepStatus } from '../../../../shared/plan';
import { useApp } from '../../stores/useApp';

const marks: Record<PlanStepStatus, string> = { pending: '○', in_progress: '◐', done: '✓' };
const labels: Record<PlanStepStatus, string> = { pending: 'pending', in_progress: 'in progress', done: 'done' };
const none: never[] = [];

/** The plan the agent keeps with update_plan, as it stands now. */
export function PlanPanel({ sessionId }: { sessionId: string }) {
  const plan = useApp((state) => state.logs[sessionId]?.state.plan ?? none);
  const [open, setOpen] = useState(true);
  const done = plan.filter((step) => step.status === 'done').length;

  return (
    <section className="plan-panel panel" aria-label="Plan" data-testid="plan-panel">
      <button type="button" className="panel-header ghost" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="panel-title">Plan</span>
        {plan.length > 0 ? (
          <span className="faint" data-testid="plan-progress">
            {done}/{plan.length}
          </span>
        ) : (
          <span className="faint">none yet</span>
        )}
      </button>
      {open && plan.length > 0 && (
        <ol className="plan" data-testid="plan">
          {plan.map((step, index) => (
            <li key={index} className={`plan-step plan-${step.status}`} data-testid="plan-step" data-status={step.status}>
              <span className="plan-mark" aria-hidden="true">
                {marks[step.status]}
              </span>
              <span className="plan-text">{step.step}</span>
              <span className="visually-hidden">({labels[step.status]})</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
