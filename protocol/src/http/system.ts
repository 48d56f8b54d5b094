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
  summary: 'Readiness: database and Redis answer, and at least one media worker and one render worker are alive.',
  tag: 'system',
  access: 'public',
  response: readinessSchema,
  alsoRespondsWith: [503],
});
