import { z } from 'zod';

export const PlanStepStatus = z.enum(['pending', 'in_progress', 'done']);
export type PlanStepStatus = z.infer<typeof PlanStepStatus>;

/** One step of the plan the model keeps with update_plan. */
export const PlanStep = z.object({
  /** What the step does, in a few words. */
  step: z.string().min(1),
  status: PlanStepStatus,
});
export type PlanStep = z.infer<typeof PlanStep>;
