import { z } from 'zod';

export const dependencyCheckSchema = z.object({
  ok: z.boolean(),
  detail: z.string().optional(),
});

/** `/readyz`: the api is ready when its stores answer and at least one worker of each kind is alive. */
export const readinessSchema = z.object({
  ready: z.boolean(),
  checks: z.object({
    database: dependencyCheckSchema,
    redis: dependencyCheckSchema,
    mediaWorkers: dependencyCheckSchema.extend({ count: z.number().int().nonnegative() }),
    renderWorkers: dependencyCheckSchema.extend({ count: z.number().int().nonnegative() }),
  }),
});
export type Readiness = z.infer<typeof readinessSchema>;

export const livenessSchema = z.object({ ok: z.literal(true), uptimeSeconds: z.number() });
export type Liveness = z.infer<typeof livenessSchema>;
