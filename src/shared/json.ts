import { z } from 'zod';

/** Any value that survives JSON.stringify/JSON.parse unchanged: what the log can hold. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export const Json: z.ZodType<Json> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(Json), z.record(z.string(), Json)]),
);
