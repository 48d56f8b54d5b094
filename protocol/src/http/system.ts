import { z } from 'zod';
import { livenessSchema, readinessSchema } from '../health.ts';
import { defineEndpoint } from './endpoint.ts';

export const healthzEndpoint = defineEndpoint({
  id: 'healthz',
  method: 'get',
  path: '/healthz',
  summary: 'Liveness: the api process is up.',
  tag: 'system',
  access: 'public',
  response: livenessSchema,
});

export const readyzEndpoint = defineEndpoint({
  id: 'readyz',
  method: 'get',
  path: '/readyz',
  summary:
    'Readiness: database and Redis answer, and at least one media worker and one render worker are alive. With scope=api only the first two count (the api can serve without workers: a load balancer keeps it in service while workers are scaled from zero or restarted).',
  tag: 'system',
  access: 'public',
  query: z.object({ scope: z.enum(['system', 'api']).default('system') }),
  response: readinessSchema,
  alsoRespondsWith: [503],
});
