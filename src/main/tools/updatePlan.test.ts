import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from './defineTool';
import { makeToolContext } from '../../../test/support/toolContext';
import { updatePlan } from './updatePlan';

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-plan-'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('update_plan', () => {
  it('records the plan and echoes it compactly', async () => {
    const ctx = makeToolContext(root);
    const steps = [
      { step: 'Reproduce the failing test', status: 'done' as const },
      { step: 'Fix the parser', status: 'in_progress' as const },
      { step: 'Run the tests', status: 'pending' as const },
    ];
    const result = await updatePlan.execute({ steps, explanation: 'The bug is in the parser.' }, ctx);
    expect(ctx.plans).toEqual([steps]);
    expect(result.title).toBe('Plan: 1 of 3 done; now: Fix the parser');
    expect(result.output).toBe('[x] Reproduce the failing test\n[>] Fix the parser\n[ ] Run the tests\n\nThe bug is in the parser.');
    expect(updatePlan.risk).toBe('none');
  });

  it('refuses more than one step in progress and records nothing', async () => {
    const ctx = makeToolContext(root);
    const attempt = updatePlan.execute(
      {
        steps: [
          { step: 'A', status: 'in_progress' },
          { step: 'B', status: 'in_progress' },
        ],
      },
      ctx,
    );
    await expect(attempt).rejects.toBeInstanceOf(ToolError);
    await expect(attempt).rejects.toThrow(
      'update_plan: 2 steps are in_progress ("A", "B"); mark only the step you are working on now as in_progress, and the others pending or done.',
    );
    expect(ctx.plans).toEqual([]);
  });

  it('clears the plan with no steps', async () => {
    const ctx = makeToolContext(root);
    const result = await updatePlan.execute({ steps: [] }, ctx);
    expect(ctx.plans).toEqual([[]]);
    expect(result.output).toBe('(plan cleared)');
  });

  it('accepts only the three statuses and non-empty steps', () => {
    expect(updatePlan.parameters.safeParse({ steps: [{ step: 'A', status: 'started' }] }).success).toBe(false);
    expect(updatePlan.parameters.safeParse({ steps: [{ step: '', status: 'done' }] }).success).toBe(false);
    expect(updatePlan.parameters.safeParse({ steps: [{ step: 'A', status: 'done' }] }).success).toBe(true);
  });
});
