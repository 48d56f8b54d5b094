import { defineEndpoint } from '../http/endpoint.ts';
import { fleetLoadHistorySchema, fleetOverviewSchema } from './dashboard.ts';

export const getFleetOverviewEndpoint = defineEndpoint({
  id: 'getFleetOverview',
  method: 'get',
  path: '/api/v1/admin/fleet',
  summary: 'Every worker with its live load and sessions, the sessions queue, failed outputs and recent failovers (administrators only).',
  tag: 'fleet',
  access: 'admin',
  response: fleetOverviewSchema,
});

export const getFleetLoadHistoryEndpoint = defineEndpoint({
  id: 'getFleetLoadHistory',
  method: 'get',
  path: '/api/v1/admin/fleet/history',
  summary: 'The fleet’s load over the last hour, one sample every few seconds (administrators only).',
  tag: 'fleet',
  access: 'admin',
  response: fleetLoadHistorySchema,
});

export const fleetEndpoints = [getFleetOverviewEndpoint, getFleetLoadHistoryEndpoint] as const;
