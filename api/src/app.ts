import express, { type Express } from 'express';
import { bodyParsing } from './http/body.ts';
import { ProjectAccess, provideProjectAccess } from './access/project-access.ts';
import type { Redis } from 'ioredis';
import { pinoHttp } from 'pino-http';
import {
  deleteCurrentUserEndpoint,
  getCurrentUserEndpoint,
  getUserSettingsEndpoint,
  healthzEndpoint,
  getSignInMethodsEndpoint,
  listDevInboxEndpoint,
  readyzEndpoint,
  updateCurrentUserEndpoint,
  updateMailingPreferencesEndpoint,
  updateMailingStatusEndpoint,
  type Endpoint,
} from '@onair/protocol';
import { closeSessionEndpoint, getSessionEndpoint, openSessionEndpoint, projectEndpoints } from '@onair/protocol';
import { alertEndpoints, billingEndpoints, destinationEndpoints, eventEndpoints, guestEndpoints, memberEndpoints, STRIPE_WEBHOOK_PATH } from '@onair/protocol';
import { campaignEndpoints, fleetEndpoints, ingestEndpoints, partnerEndpoints, recordingEndpoints, scheduleEndpoints, uploadEndpoints } from '@onair/protocol';
import type { Db } from '@onair/db';
import { SecretBox, type Logger } from '@onair/runtime';
import { authHandler, createAccounts, resolveSessionUserId, type Accounts } from './auth/index.ts';
import { AUTH_BASE_PATH } from './auth/auth.ts';
import { devInboxEnabled } from './auth/config.ts';
import { documentLimits, type ApiConfig } from './config.ts';
import { SceneService } from './scenes/scene-service.ts';
import { WorkerRegistry } from './fleet/worker-registry.ts';
import { errorHandler, notFoundHandler } from './http/errors.ts';
import { buildOpenApiDocument } from './http/openapi.ts';
import { createDestinations, type SessionControl } from './destinations/index.ts';
import { staticUi } from './http/static-ui.ts';
import { createApiMetrics } from './metrics.ts';
import { authMethodsRoutes } from './auth/methods-routes.ts';
import { BillingService } from './billing/billing-service.ts';
import { billingSettings, classicStudioUrl } from './billing/config.ts';
import { billingRoutes, stripeWebhookHandlers } from './billing/routes.ts';
import { destinationRoutes } from './destinations/routes.ts';
import { fleetRoutes } from './fleet/routes.ts';
import { INGEST_CALLBACK_PREFIX, ingestRoutes } from './ingest/routes.ts';
import { whipRoutes } from './ingest/whip-routes.ts';
import { createIngest } from './ingest/index.ts';
import { devInboxRoutes } from './mail/dev-inbox-routes.ts';
import { projectRoutes } from './scenes/routes.ts';
import { memberRoutes } from './members/routes.ts';
import { eventRoutes } from './events/routes.ts';
import { AlertsService } from './events/alerts-service.ts';
import { alertsOverlayRoutes } from './events/alerts-overlay.ts';
import { MemberService } from './members/member-service.ts';
import { sessionRoutes } from './sessions/routes.ts';
import { guestRoutes } from './guests/routes.ts';
import { createGuestService, guestResolverOf, type GuestService } from './guests/index.ts';
import { provideGuestResolver } from './http/auth-context.ts';
import { SessionService } from './sessions/session-service.ts';
import { systemRoutes } from './system/routes.ts';
import { userRoutes } from './auth/user-routes.ts';
import { createUploadStore, uploadLimits, uploadRoutes, UploadService, type UploadStore } from './uploads/index.ts';
import { recordingRoutes } from './recordings/index.ts';
import { Countdowns } from './scenes/countdowns.ts';
import { scheduleRoutes, ScheduledBroadcastQueue, ScheduleService } from './schedules/index.ts';
import { partnerRoutes } from './partner/index.ts';
import { CampaignService } from './campaigns/campaign-service.ts';
import { campaignRoutes } from './campaigns/routes.ts';
import { createMoney, moneyRoutes } from './money/index.ts';
import { DataExportQueue } from './partner/data-exports/export-job.ts';
import { oauthProviders } from './auth/oauth-providers.ts';
import { createOverlayService, overlayPageRoutes, overlayRoutes, overlayUploadRoutes, ownPageUrls } from './overlays/index.ts';
import { CreatorSiteService, creatorSitePageRoutes, creatorSiteRoutes, creatorSiteUploadRoutes } from './creator-site/index.ts';

export interface AppDeps {
  config: ApiConfig;
  db: Db;
  redis: Redis;
  logger: Logger;
  /** Sign-in, shared with the WebSocket server; made here when not given. */
  accounts?: Accounts;
  /** Go Live's hold on studio sessions (session placement); without it Go Live answers 503 and the rest of destinations works. */
  sessionControl?: SessionControl;
  /** Studio sessions (the placement queue); made here when not given. Its owner closes its queue. */
  sessions?: SessionService;
  /** Where uploads are kept; the disk store at UPLOADS_DIR when not given. */
  uploadStore?: UploadStore;
  /** Where scheduled video broadcasts wait (its owner closes it and runs its worker); made here when not given. */
  scheduleQueue?: ScheduledBroadcastQueue;
  /** Where data exports are queued (its owner closes it and runs its worker); made here when not given. */
  exportQueue?: DataExportQueue;
  /** The clock of the partner network's time rules (username cooldown, erasure); tests advance it. */
  now?: () => Date;
  /** Guests by link; made here when not given (the WebSocket server shares it). */
  guests?: GuestService;
}

/** Every endpoint contract the api mounts; the OpenAPI document lists exactly these. */
export const mountedEndpoints: readonly Endpoint[] = [
  healthzEndpoint,
  readyzEndpoint,
  getCurrentUserEndpoint,
  updateCurrentUserEndpoint,
  deleteCurrentUserEndpoint,
  getUserSettingsEndpoint,
  updateMailingPreferencesEndpoint,
  updateMailingStatusEndpoint,
  listDevInboxEndpoint,
  getSignInMethodsEndpoint,
  ...projectEndpoints,
  ...memberEndpoints,
  ...eventEndpoints,
  ...alertEndpoints,
  ...guestEndpoints,
  ...destinationEndpoints,
  ...fleetEndpoints,
  ...billingEndpoints,
  ...uploadEndpoints,
  ...recordingEndpoints,
  ...scheduleEndpoints,
  ...ingestEndpoints,
  openSessionEndpoint,
  getSessionEndpoint,
  closeSessionEndpoint,
  ...partnerEndpoints,
  ...campaignEndpoints,
];

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  const workers = new WorkerRegistry(deps.redis);
  const metrics = createApiMetrics(workers);

  app.use(
    pinoHttp({
      logger: deps.logger,
      // The RTMP server's callbacks carry its secret in the path: never logged (the ingest logs its own decisions).
      autoLogging: { ignore: (req) => ['/healthz', '/readyz', '/metrics'].includes(req.url ?? '') || (req.url ?? '').startsWith(INGEST_CALLBACK_PREFIX) },
      // Only the path: query strings can carry one-time tokens (magic links, OAuth codes).
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      },
    }),
  );
  app.use(metrics.httpMiddleware);
  const accounts = deps.accounts ?? createAccounts(deps);
  // Sign-in bodies are small: they are read here, under their own limit and the text rule, and
  // better-auth takes the parsed body instead of reading the stream itself.
  app.use(AUTH_BASE_PATH, ...bodyParsing({ limitBytes: deps.config.AUTH_MAX_BODY_BYTES, forms: true }));
  app.all(`${AUTH_BASE_PATH}/{*path}`, authHandler(accounts.auth));
  const alerts = new AlertsService({ db: deps.db, redis: deps.redis, logger: deps.logger, publicUrl: deps.config.PUBLIC_URL, secret: deps.config.AUTH_SECRET, signForStudio: ownPageUrls(deps.config).sign });
  const money = createMoney({ db: deps.db, redis: deps.redis, logger: deps.logger, publicUrl: deps.config.PUBLIC_URL, billing: billingSettings(deps.config), secretsKey: deps.config.SECRETS_KEY, alerts, ...(deps.now ? { now: deps.now } : {}) });
  const billing = new BillingService({ db: deps.db, redis: deps.redis, logger: deps.logger, publicUrl: deps.config.PUBLIC_URL, settings: billingSettings(deps.config), classicStudioUrl: classicStudioUrl(deps.config), money: money.webhooks });
  // Before the JSON parser: the signature covers the raw bytes.
  app.post(STRIPE_WEBHOOK_PATH, ...stripeWebhookHandlers(billing));
  // WHIP bodies are SDP, read by its routes under their own limit (see whipRoutes).
  const sessions = deps.sessions ?? new SessionService(deps.db, deps.redis, deps.config.SECRETS_KEY ? new SecretBox(deps.config.SECRETS_KEY) : undefined, deps.logger);
  const access = new ProjectAccess(deps.db, deps.logger);
  const destinations = createDestinations({
    config: deps.config,
    db: deps.db,
    redis: deps.redis,
    logger: deps.logger,
    assertProjectAccess: (user, projectId) => access.require(user, projectId, 'read project'),
    sessions: deps.sessionControl ?? sessions,
    ...(deps.now ? { now: deps.now } : {}),
  });
  const countdowns = new Countdowns({ db: deps.db, redis: deps.redis, logger: deps.logger, ...(deps.now ? { now: deps.now } : {}) });
  const scenes = new SceneService(deps.db, deps.redis, deps.logger, access, documentLimits(deps.config), ownPageUrls(deps.config).trusted, countdowns);
  const ingest = createIngest({ ...deps, broadcasts: destinations.broadcasts, sessions, scenes });
  app.use(whipRoutes({ ingest, redis: deps.redis, logger: deps.logger }));
  // OAuth clients post forms to the token and device endpoints (RFC 6749, 8628).
  app.use('/api/oauth', ...bodyParsing({ limitBytes: deps.config.AUTH_MAX_BODY_BYTES, forms: true }));
  const resolveSession = (req: Parameters<typeof resolveSessionUserId>[1]) => resolveSessionUserId(accounts.auth, req);
  app.use(provideProjectAccess(access));
  // Before the uploads: a guest's request to them is the guest's (refused by role), not anonymous.
  const guests = deps.guests ?? createGuestService(deps);
  app.use(provideGuestResolver(guestResolverOf(guests)));
  const uploads = new UploadService(deps.db, deps.uploadStore ?? createUploadStore(deps.config), uploadLimits(deps.config), deps.logger);
  // Before the JSON parser: an upload's body is the file, streamed under its own limits.
  app.use(uploadRoutes({ db: deps.db, uploads, resolveSession }));
  const sites = new CreatorSiteService({ db: deps.db, publicUrl: deps.config.PUBLIC_URL, uploads, tips: money.tips, ...(deps.now ? { now: deps.now } : {}) });
  app.use(creatorSiteUploadRoutes({ db: deps.db, uploads, resolveSession }));
  const overlays = createOverlayService({ ...deps, uploads });
  app.use(overlayUploadRoutes({ db: deps.db, uploads, resolveSession }));
  app.use(...bodyParsing({ limitBytes: deps.config.MAX_BODY_BYTES }));

  app.use(systemRoutes({ db: deps.db, redis: deps.redis, workers }));
  app.use(projectRoutes({ db: deps.db, scenes, resolveSession }));
  app.use(memberRoutes({ db: deps.db, members: new MemberService({ db: deps.db, mailer: accounts.mailer, logger: deps.logger, publicUrl: deps.config.PUBLIC_URL }), resolveSession }));
  app.use(eventRoutes({ db: deps.db, resolveSession, alerts }));
  // The alerts overlay page, opened by the render worker with the project's overlay key (no session).
  app.use(alertsOverlayRoutes({ redis: deps.redis, alerts, logger: deps.logger }));
  app.use(guestRoutes({ db: deps.db, redis: deps.redis, guests, resolveSession, publicUrl: deps.config.PUBLIC_URL, joinsPerMinute: deps.config.GUEST_JOIN_RATE_LIMIT_PER_IP }));
  app.use(sessionRoutes({ db: deps.db, sessions, resolveSession }));
  app.use(billingRoutes({ db: deps.db, billing, resolveSession }));
  app.use(destinationRoutes({ db: deps.db, resolveSession: (req) => resolveSessionUserId(accounts.auth, req), services: destinations, publicUrl: deps.config.PUBLIC_URL, logger: deps.logger }));
  app.use(recordingRoutes({ db: deps.db, recordings: destinations.recordings, resolveSession }));
  const schedules = new ScheduleService({ db: deps.db, queue: deps.scheduleQueue ?? new ScheduledBroadcastQueue(deps.redis), logger: deps.logger, ...(deps.now ? { now: deps.now } : {}) });
  app.use(scheduleRoutes({ db: deps.db, schedules, resolveSession }));
  app.use(ingestRoutes({ db: deps.db, ingest, resolveSession, callbackSecret: deps.config.INGEST_CALLBACK_SECRET, logger: deps.logger }));
  app.use(userRoutes({ db: deps.db, auth: accounts.auth, mailingEnabled: deps.config.MAILING_ENABLED }));
  app.use(authMethodsRoutes(deps.config));
  // Overlay pages (OBS, the render worker) and creator sites (visitors): public, no session.
  app.use(overlayPageRoutes(overlays));
  app.use(creatorSitePageRoutes(sites));
  app.use(
    partnerRoutes({
      areas: [overlayRoutes(overlays), creatorSiteRoutes(sites)],
      db: deps.db,
      redis: deps.redis,
      applications: {
        shortCodeAttempts: deps.config.SHORT_CODE_ATTEMPTS,
        shortCodeWindowSeconds: deps.config.SHORT_CODE_WINDOW_SECONDS,
        accessTokenLifetimeSeconds: deps.config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
        rateLimitPrefix: deps.config.AUTH_RATE_LIMIT_PREFIX,
      },
      mailer: accounts.mailer,
      logger: deps.logger,
      publicUrl: deps.config.PUBLIC_URL,
      resolveSession,
      offeredProviders: oauthProviders(deps.config).map((p) => p.providerId),
      retentionDays: deps.config.ACCOUNT_RETENTION_DAYS,
      stopPlatformConnections: async (userId) => {
        await destinations.broadcasts.endAllOwnedBy(userId);
      },
      exportLinkHours: deps.config.EXPORT_LINK_HOURS,
      exportQueue: deps.exportQueue ?? new DataExportQueue(deps.redis),
      ...(deps.now ? { now: deps.now } : {}),
    }),
  );
  const campaigns = new CampaignService({
    db: deps.db,
    logger: deps.logger,
    mailer: accounts.mailer,
    publicUrl: deps.config.PUBLIC_URL,
    secrets: deps.config.SECRETS_KEY ? new SecretBox(deps.config.SECRETS_KEY) : null,
    ...(deps.now ? { now: deps.now } : {}),
  });
  app.use(campaignRoutes({ db: deps.db, campaigns, resolveSession }));
  app.use(moneyRoutes({ db: deps.db, money, resolveSession }));
  app.use(fleetRoutes({ db: deps.db, redis: deps.redis, workers, resolveSession: (req) => resolveSessionUserId(accounts.auth, req), sampleIntervalMs: deps.config.FLEET_TICK_MS }));
  if (devInboxEnabled(deps.config)) app.use(devInboxRoutes(accounts.inbox, { anyClient: deps.config.DEV_INBOX === 'on' }));
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  const openApi = buildOpenApiDocument(mountedEndpoints, { title: 'OnAir API', version: '1', serverUrl: deps.config.PUBLIC_URL });
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.json(openApi);
  });

  app.use('/api', notFoundHandler);
  app.use(staticUi(deps.config.UI_DIST_DIR, deps.logger));
  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));
  return app;
}
