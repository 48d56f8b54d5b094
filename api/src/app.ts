import express, { Router, type Express, type RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Endpoint } from '@onair/protocol';
import { accessModule } from './access/module.ts';
import { accountsModule } from './accounts/module.ts';
import { authModule } from './auth/module.ts';
import { billingModule } from './billing/module.ts';
import { campaignsModule } from './campaigns/module.ts';
import { chatModule } from './chat/module.ts';
import { chatbotModule } from './chatbot/module.ts';
import type { Composition } from './compose.ts';
import { creatorSiteModule } from './creator-site/module.ts';
import { destinationsModule } from './destinations/module.ts';
import { eventsModule } from './events/module.ts';
import { fleetModule } from './fleet/module.ts';
import { guestsModule } from './guests/module.ts';
import { bodyParsing } from './http/body.ts';
import { errorHandler, notFoundHandler } from './http/errors.ts';
import { buildOpenApiDocument } from './http/openapi.ts';
import { staticUi } from './http/static-ui.ts';
import { INGEST_CALLBACK_PREFIX } from './ingest/routes.ts';
import { LOCAL_STREAM_CALLBACK_PREFIX } from './destinations/local-stream-routes.ts';
import { ingestModule } from './ingest/module.ts';
import { membersModule } from './members/module.ts';
import { middleware, type HttpPart } from './module.ts';
import { moneyModule } from './money/module.ts';
import { notificationsModule } from './notifications/module.ts';
import { overlaysModule } from './overlays/module.ts';
import { partnerModule } from './partner/module.ts';
import { recordingsModule } from './recordings/module.ts';
import { scenesModule } from './scenes/module.ts';
import { schedulesModule } from './schedules/module.ts';
import { sessionsModule } from './sessions/module.ts';
import { systemModule } from './system/module.ts';
import { testModeModule } from './test-mode/module.ts';
import { uploadsModule } from './uploads/module.ts';

/** The JSON parser: every route after it reads a parsed body, under MAX_BODY_BYTES and the text rule. */
const jsonBody = middleware((c: Composition) => bodyParsing({ limitBytes: c.config.MAX_BODY_BYTES }));

/**
 * The HTTP stack, in order: the order is part of the behaviour. What reads its own body (sign-in,
 * Stripe's signed webhook, WHIP's SDP, OAuth forms, uploads) comes before the JSON parser; the
 * access rules and the guest resolver come before the uploads; a router that guards a path prefix
 * (`/api/v1/projects`, `/api/v1/admin`) guards it for the routers after it too.
 */
const partnerNetwork = partnerModule.http.network<Composition>([
  accountsModule.http.partnerDeletion,
  chatbotModule.http.routes,
  overlaysModule.http.routes,
  creatorSiteModule.http.routes,
  eventsModule.http.channelFeed,
]);

const httpStack: readonly HttpPart<Composition>[] = [
  systemModule.http.requestMetrics,
  authModule.http.signIn,
  billingModule.http.stripeWebhook,
  ingestModule.http.whip,
  partnerModule.http.oauthForms,
  accessModule.http.provide,
  guestsModule.http.resolver,
  uploadsModule.http.upload,
  creatorSiteModule.http.upload,
  overlaysModule.http.upload,
  notificationsModule.http.unsubscribe,
  jsonBody,
  systemModule.http.health,
  systemModule.http.clientErrors,
  scenesModule.http.projects,
  membersModule.http.routes,
  eventsModule.http.routes,
  eventsModule.http.alertsOverlay,
  chatModule.http.onScreen,
  chatModule.http.onScreenOverlay,
  guestsModule.http.routes,
  sessionsModule.http.routes,
  billingModule.http.routes,
  destinationsModule.http.routes,
  testModeModule.http.routes,
  recordingsModule.http.routes,
  schedulesModule.http.routes,
  ingestModule.http.routes,
  accountsModule.http.users,
  authModule.http.signInMethods,
  overlaysModule.http.pages,
  creatorSiteModule.http.pages,
  partnerNetwork,
  campaignsModule.http.routes,
  notificationsModule.http.admin,
  moneyModule.http.routes,
  fleetModule.http.dashboard,
  authModule.http.devInbox,
  systemModule.http.metrics,
];

/**
 * The order the OpenAPI document lists the mounted parts' contracts in: the reference's (the system,
 * the signed-in user, the studio, the partner network), which clients and the fuzz run read in
 * this order; the stack's order is the middleware's. Every part of the stack with contracts is here once.
 */
const documentOrder: readonly HttpPart<Composition>[] = [
  systemModule.http.health,
  systemModule.http.clientErrors,
  accountsModule.http.users,
  authModule.http.devInbox,
  authModule.http.signInMethods,
  scenesModule.http.projects,
  membersModule.http.routes,
  eventsModule.http.routes,
  chatModule.http.onScreen,
  guestsModule.http.routes,
  destinationsModule.http.routes,
  testModeModule.http.routes,
  fleetModule.http.dashboard,
  billingModule.http.routes,
  uploadsModule.http.upload,
  recordingsModule.http.routes,
  schedulesModule.http.routes,
  ingestModule.http.routes,
  sessionsModule.http.routes,
  partnerNetwork,
  moneyModule.http.routes,
  campaignsModule.http.routes,
  notificationsModule.http.admin,
];
const documented = new Set(documentOrder);
const undocumented = httpStack.filter((part) => part.endpoints.length > 0 && !documented.delete(part));
if (undocumented.length > 0 || documented.size > 0) throw new Error('the OpenAPI order must list exactly the mounted parts that serve contracts');

/** Every endpoint contract the api mounts; the OpenAPI document lists exactly these. */
export const mountedEndpoints: readonly Endpoint[] = documentOrder.flatMap((part) => part.endpoints);

export function createApp(c: Composition): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(
    pinoHttp({
      logger: c.logger,
      // The RTMP servers' callbacks carry their secret in the path: never logged (the ingest and the Local streams log their own decisions).
      autoLogging: {
        ignore: (req) =>
          ['/healthz', '/readyz', '/metrics'].includes(req.url ?? '') ||
          (req.url ?? '').startsWith(INGEST_CALLBACK_PREFIX) ||
          (req.url ?? '').startsWith(LOCAL_STREAM_CALLBACK_PREFIX),
      },
      // Only the path: query strings can carry one-time tokens (magic links, OAuth codes).
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      },
    }),
  );
  for (const part of httpStack) {
    const handlers: RequestHandler[] = ([] as RequestHandler[]).concat(part.mount(c));
    if (handlers.length > 0) app.use(...handlers);
  }
  const openApi = buildOpenApiDocument(mountedEndpoints, { title: 'OnAir API', version: '1', serverUrl: c.config.PUBLIC_URL });
  app.use(
    Router().get('/api/v1/openapi.json', (_req, res) => {
      res.json(openApi);
    }),
  );
  app.use('/api', notFoundHandler);
  app.use(staticUi(c.config.UI_DIST_DIR, c.logger));
  app.use(notFoundHandler);
  app.use(errorHandler(c.logger));
  return app;
}
