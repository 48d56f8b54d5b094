// The shape of a feature module. Each feature folder of api/src exports one module (`<feature>/module.ts`):
// `build` makes its services from the services it declares it needs, and its parts say what it
// adds to the HTTP stack, to the WebSocket server and to the process's background work. compose.ts
// builds every service once; app.ts, sockets.ts and background.ts list the parts in their order.
import type { Server } from 'node:http';
import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { Endpoint } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { ApiConfig } from './config.ts';

/** What every module may read: the process's configuration, stores and log, and the clock tests advance. */
export interface Platform {
  config: ApiConfig;
  db: Db;
  redis: Redis;
  logger: Logger;
  /** The clock of the time rules (retention, cooldowns, schedules); tests advance it. */
  now?: () => Date;
}

/** A part of the HTTP stack: its handlers, and the endpoint contracts they serve. */
export interface HttpPart<D> {
  /** The contracts served here; the OpenAPI document lists exactly those of the mounted parts. */
  readonly endpoints: readonly Endpoint[];
  readonly mount: (deps: D) => RequestHandler | RequestHandler[];
}

/** Something started that is closed on shutdown. */
export interface Running {
  close(): Promise<void> | void;
}

/** Background work of one api process (a sweep, a queue's worker, a watch, a leader's loop). */
export interface JobPart<D> {
  readonly name: string;
  readonly start: (deps: D) => Promise<Running> | Running;
}

/** Served on the api's HTTP server by upgrade (`/ws`, overlay feeds), or the live connectors feeding it. */
export interface SocketPart<D> {
  readonly name: string;
  readonly attach: (server: Server, deps: D) => Promise<Running> | Running;
}

/** An HTTP part without contracts of its own (body parsing, middleware that provides a service to the routes). */
export function middleware<D>(mount: (deps: D) => RequestHandler | RequestHandler[]): HttpPart<D> {
  return { endpoints: [], mount };
}
