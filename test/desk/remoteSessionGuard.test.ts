import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { SESSION_REQUESTS } from '../../src/main/app/desk/remoteSessionGuard';
import { requests, type RequestName } from '../../src/shared/contract';

/** The keys of a request's input object, through a refine. */
function inputKeys(schema: z.ZodType): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

describe('the guard of remote runs', () => {
  it('places every request that names a session, so a new one cannot act on a remote run unnoticed', () => {
    const naming = (Object.keys(requests) as RequestName[]).filter((name) => inputKeys(requests[name].input).includes('sessionId'));
    const placed = [...SESSION_REQUESTS.reads, ...SESSION_REQUESTS.refused, ...SESSION_REQUESTS.empty, ...SESSION_REQUESTS.routed];
    expect(naming.length).toBeGreaterThan(20);
    expect(naming.filter((name) => !placed.includes(name))).toEqual([]);
    // Each in one list only.
    expect(new Set(placed).size).toBe(placed.length);
  });
});
