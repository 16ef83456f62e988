import { z } from 'zod';
import { PlanStepStatus, type PlanStep } from '../../shared/plan';
import { defineTool, ToolError } from './defineTool';
import description from './updatePlan.txt?raw';

const MAX_STEPS = 50;

const parameters = z.object({
  steps: z
    .array(
      z.object({
        step: z.string().min(1).describe('What the step does, in a few words.'),
        status: PlanStepStatus.describe('pending, in_progress (the step being worked on now; at most one) or done.'),
      }),
    )
    .max(MAX_STEPS)
    .describe('The whole plan in order; it replaces the previous plan.'),
  explanation: z.string().optional().describe('Why the plan changed, in a sentence.'),
});

const MARKS: Record<PlanStep['status'], string> = { pending: '[ ]', in_progress: '[>]', done: '[x]' };

export const updatePlan = defineTool({
  name: 'update_plan',
  description,
  risk: 'none',
  parameters,
  subject: () => ({ kind: 'none' }),
  summarize: ({ steps }) => `Update the plan (${steps.length} step${steps.length === 1 ? '' : 's'})`,
  async execute({ steps, explanation }, ctx) {
    const current = steps.filter((step) => step.status === 'in_progress');
    if (current.length > 1) {
      throw new ToolError(
        `update_plan: ${current.length} steps are in_progress (${current.map((step) => JSON.stringify(step.step)).join(', ')}); ` +
          'mark only the step you are working on now as in_progress, and the others pending or done.',
      );
    }
    const plan: PlanStep[] = steps.map(({ step, status }) => ({ step: step.trim() || step, status }));
    ctx.setPlan(plan);
    const done = plan.filter((step) => step.status === 'done').length;
    const lines = plan.map((step) => `${MARKS[step.status]} ${step.step}`);
    const output = plan.length ? lines.join('\n') : '(plan cleared)';
    return {
      title: plan.length ? `Plan: ${done} of ${plan.length} done${current[0] ? `; now: ${current[0].step}` : ''}` : 'Plan cleared',
      output: explanation ? `${output}\n\n${explanation}` : output,
      metadata: { steps: plan.map((step) => ({ step: step.step, status: step.status })), explanation: explanation ?? null },
    };
  },
});
