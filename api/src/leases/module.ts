import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { ApiConfig } from '../config.ts';
import { RedisLease } from './lease.ts';

export interface LeasesServices {
  /** This process's name in the leases it holds (and the chat's channel for the sends routed to it). */
  replicaId: string;
  /** A family of this replica's leases, one per id at `keyOf(id)`, lapsing PLATFORM_OWNER_LEASE_MS after its holder stops renewing. */
  connectorLeases: (keyOf: (id: string) => string) => RedisLease;
}

/** The leases that elect one owner per channel among the api replicas (chat, events, chatbots). */
export const leasesModule = {
  name: 'leases',
  build: (deps: { redis: Redis; config: Pick<ApiConfig, 'PLATFORM_OWNER_LEASE_MS'> }): LeasesServices => {
    const replicaId = `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
    return { replicaId, connectorLeases: (keyOf) => new RedisLease(deps.redis, replicaId, deps.config.PLATFORM_OWNER_LEASE_MS, keyOf) };
  },
};
