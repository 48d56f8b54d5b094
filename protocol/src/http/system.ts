import { z } from 'zod';
import { clientErrorAcceptedSchema, clientErrorReportSchema } from '../client-errors.ts';
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

export const reportClientErrorEndpoint = defineEndpoint({
  id: 'reportClientError',
  method: 'post',
  path: '/api/v1/client-errors',
  summary:
    'The web app reports a rendering failure it caught (message, trimmed stack, release, route; no personal data, no query strings). Logged at warn as `client_error` and counted; 429 RATE_LIMITED past CLIENT_ERRORS_PER_MINUTE reports a minute from one address.',
  tag: 'system',
  access: 'public',
  body: clientErrorReportSchema,
  response: clientErrorAcceptedSchema,
  successStatus: 202,
});
