// The api as it runs in production, WebSocket included: one composition served by createApp plus /ws on one HTTP server,
// against a test database and the test Redis. Pass `databaseUrl` to start a second replica on the
// same database, as a deployment with several api pods has.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createDb, type Db } from '@onair/db';
import { DEFAULT_STRIPE_CATALOGUE, startStripeDouble, stripeDoubleEnv, type RunningStripeDouble } from '@onair/embedded';
import { createTestDatabase, testRedisUrl } from '@onair/embedded/test-services';
import { createLogger, type Logger } from '@onair/runtime';
import { GUEST_REQUEST_HEADER, GUEST_SESSION_COOKIE, planEntitlements, STRIPE_WEBHOOK_PATH, type PlanId } from '@onair/protocol';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { SESSION_COOKIE } from '../../src/http/auth-context.ts';
import { compose } from '../../src/compose.ts';
import { partnerModule } from '../../src/partner/module.ts';
import { attachStudioSockets } from '../../src/sockets.ts';
import { DataExportQueue } from '../../src/partner/data-exports/export-job.ts';
import type { ScheduledBroadcastQueue } from '../../src/schedules/index.ts';

export interface StudioApi {
  url: string;
  /** Signs session cookies; test users get cookies signed with it, as the browser would hold them. */
  authSecret: string;
  wsUrl: string;
  databaseUrl: string;
  db: Db;
  redis: Redis;
  /** The Stripe double the api bills through (test mode, as the one-machine stack runs it). */
  stripe: RunningStripeDouble;
  close(): Promise<void>;
}

/**
 * `env` adds api configuration (platform endpoints, SECRETS_KEY…); PUBLIC_URL is the server's real
 * address unless given. `logger` replaces the silent one (to read what the api logs).
 */
export async function startStudioApi(
  options: { databaseUrl?: string; env?: NodeJS.ProcessEnv; logger?: Logger; now?: () => Date; scheduleQueue?: ScheduledBroadcastQueue } = {},
): Promise<StudioApi> {
  const database = options.databaseUrl ? undefined : await createTestDatabase();
  const databaseUrl = options.databaseUrl ?? database!.url;
  // Listen first: OAuth redirect URIs are built from PUBLIC_URL, which must be the real address.
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stripe = await startStripeDouble({
    catalogue: DEFAULT_STRIPE_CATALOGUE,
    webhookEndpoints: [`http://127.0.0.1:${port}${STRIPE_WEBHOOK_PATH}`],
    retryDelaysMs: [100, 300],
  });
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    REDIS_URL: testRedisUrl(),
    LOG_LEVEL: 'silent',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...stripeDoubleEnv(stripe),
    ...options.env,
  });
  const db = createDb(databaseUrl);
  const redis = new Redis(config.REDIS_URL);
  const logger = options.logger ?? createLogger('api-test', 'silent');
  // Data exports are built here as the api process builds them, on a queue of this api alone.
  const exportQueue = new DataExportQueue(redis, { prefix: `test-${randomUUID()}` });
  const services = compose({
    config,
    db,
    redis,
    logger,
    exportQueue,
    ...(options.now ? { now: options.now } : {}),
    ...(options.scheduleQueue ? { scheduleQueue: options.scheduleQueue } : {}),
  });
  const exportWorker = partnerModule.jobs.dataExports.start(services);
  server.on('request', createApp(services));
  const sockets = await attachStudioSockets(server, services);
  return {
    url: `http://127.0.0.1:${port}`,
    authSecret: config.AUTH_SECRET,
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    databaseUrl,
    db,
    redis,
    stripe,
    close: async () => {
      await stripe.stop();
      await sockets.close();
      await exportWorker.close();
      await exportQueue.close();
      await services.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
      await db.$disconnect();
      await database?.drop();
    },
  };
}

export interface TestUser {
  id: string;
  /** The session token as stored; the cookie carries it signed. */
  token: string;
  cookie: string;
  /** A guest of a link: requests carry the guest header and sockets open `/ws?as=guest`. */
  guest?: boolean;
  /** The address the requests come from (X-Forwarded-For; the api trusts it from loopback). */
  ip?: string;
}

/**
 * The cookie better-auth sets for a session: `<token>.<base64 HMAC-SHA256 of the token>`,
 * URL-encoded (better-call's signCookieValue).
 */
export function signedSessionCookie(token: string, secret: string): string {
  const signature = createHmac('sha256', secret).update(token).digest('base64');
  return `${SESSION_COOKIE}=${encodeURIComponent(`${token}.${signature}`)}`;
}

/**
 * A user with a live session row, as sign-in leaves them: the browser holds the signed session
 * cookie. Signing in through e-mail codes is covered by the auth tests; here the row is written
 * directly so scene tests stay fast. A plan other than Free is given as a subscription carrying
 * that plan's entitlements, as billing will write it.
 */
export async function createTestUser(api: Pick<StudioApi, 'db' | 'authSecret'>, options: { plan?: PlanId; expiresInMs?: number } = {}): Promise<TestUser> {
  const { db } = api;
  const id = randomUUID();
  const token = randomBytes(24).toString('base64url');
  await db.user.create({ data: { id, email: `${id}@example.test` } });
  await db.session.create({ data: { id: randomUUID(), token, userId: id, expiresAt: new Date(Date.now() + (options.expiresInMs ?? 3_600_000)) } });
  if (options.plan && options.plan !== 'Free') {
    const entitlements = planEntitlements[options.plan];
    await db.subscription.create({
      data: {
        userId: id,
        planId: options.plan,
        itemPriceId: `${options.plan}-USD-Monthly`,
        status: 'active',
        entitlements: { create: Object.entries(entitlements).map(([featureId, value]) => ({ featureId, value })) },
      },
    });
  }
  return { id, token, cookie: signedSessionCookie(token, api.authSecret) };
}

/** JSON over HTTP as the studio sends it. */
export async function call(api: StudioApi, user: TestUser | null, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: {
      ...(user ? { cookie: user.cookie } : {}),
      ...(user?.guest ? { [GUEST_REQUEST_HEADER]: '1' } : {}),
      ...(user?.ip ? { 'x-forwarded-for': user.ip } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  // A file download (a CSV) is not JSON: its text is the body.
  const json = res.headers.get('content-type')?.includes('json') ?? true;
  return { status: res.status, body: text ? (json ? (JSON.parse(text) as unknown) : text) : undefined };
}

/** The host's guest link token (made on first ask), as Copy Guest Link copies it. */
export async function guestLinkOf(api: StudioApi, host: TestUser, projectId: string): Promise<string> {
  const res = await call(api, host, 'GET', `/api/v1/projects/${projectId}/guest-link`);
  if (res.status !== 200) throw new Error(`no guest link: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { code: string }).code;
}

/** Joins by a guest link as a browser would; the guest holds the cookie the api set. */
export async function joinAsGuest(
  api: StudioApi,
  projectId: string,
  token: string,
  options: { displayName?: string; ip?: string } = {},
): Promise<{ status: number; body: unknown; guest: TestUser | null }> {
  const res = await fetch(`${api.url}/api/v1/guest/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(options.ip ? { 'x-forwarded-for': options.ip } : {}) },
    body: JSON.stringify({ projectId, token, displayName: options.displayName ?? '' }),
  });
  const body = (await res.json()) as { guestId?: string };
  const session = res.headers.getSetCookie().find((c) => c.startsWith(`${GUEST_SESSION_COOKIE}=`));
  const cookie = session?.split(';')[0];
  return { status: res.status, body, guest: cookie && body.guestId ? { id: body.guestId, token: '', cookie, guest: true, ip: options.ip } : null };
}
