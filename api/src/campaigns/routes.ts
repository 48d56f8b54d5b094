import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import {
  adminCreateCampaignEndpoint,
  adminDecideApplicationEndpoint,
  adminImportKeysEndpoint,
  adminInviteCreatorEndpoint,
  adminListApplicationsEndpoint,
  adminListCampaignsEndpoint,
  adminRecordSalesEndpoint,
  adminUpdateCampaignEndpoint,
  answerCampaignInvitationEndpoint,
  applyToCampaignEndpoint,
  CAMPAIGN_LINK_PATH,
  claimCampaignKeyEndpoint,
  createPromoCodeEndpoint,
  getCampaignEndpoint,
  listCampaignsEndpoint,
  listPublicCampaignsEndpoint,
  OnAirError,
  sponsorImpressionQuerySchema,
  withdrawApplicationEndpoint,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import { authenticate, getCurrentUser, type SessionResolver } from '../http/auth-context.ts';
import { mount } from '../http/mount.ts';
import type { CampaignService } from './campaign-service.ts';

const ADMIN_PATH = '/api/v1/admin/campaigns';

/** The admin portal is administrators' only: anyone else signed in is FORBIDDEN, signed out UNAUTHENTICATED. */
const requireAdmin: RequestHandler = (req, _res, next) => {
  if (getCurrentUser(req).userType !== 'ADMIN') throw new OnAirError('FORBIDDEN', 'The campaign admin portal is for administrators only.');
  next();
};

const slugParams = z.object({ slug: z.string().regex(/^[A-Za-z0-9_-]{8,32}$/) });

/** Campaigns: creators' own calls, the admin portal, and the public tracked links. */
export function campaignRoutes(deps: { db: Db; campaigns: CampaignService; resolveSession: SessionResolver }): Router {
  const router = Router();
  const { campaigns } = deps;

  // Public: a tracked link counts a click and sends the viewer to the store; its impression pixel counts a view.
  router.get(`${CAMPAIGN_LINK_PATH}/impression`, async (req, res) => {
    const params = slugParams.safeParse(req.params);
    const query = sponsorImpressionQuerySchema.safeParse(req.query);
    if (!query.success) throw new OnAirError('VALIDATION_FAILED', 'The source is site or overlay.');
    if (!params.success || !(await campaigns.impression(params.data.slug, query.data.source))) throw new OnAirError('NOT_FOUND', 'This link does not exist.');
    res.set('cache-control', 'no-store').status(204).end();
  });
  router.get(CAMPAIGN_LINK_PATH, async (req, res) => {
    const params = slugParams.safeParse(req.params);
    const target = params.success ? await campaigns.click(params.data.slug) : null;
    if (!target) throw new OnAirError('NOT_FOUND', 'This link does not exist.');
    res.set('cache-control', 'no-store').redirect(302, target);
  });

  mount(router, listPublicCampaignsEndpoint, async () => ({ campaigns: await campaigns.publicList() }));

  router.use(['/api/v1/partner/campaigns', ADMIN_PATH], authenticate(deps.db, deps.resolveSession));
  router.use(ADMIN_PATH, requireAdmin);

  mount(router, listCampaignsEndpoint, async ({ query }, { req }) => ({ campaigns: await campaigns.listFor(getCurrentUser(req), query) }));
  mount(router, getCampaignEndpoint, async ({ params }, { req }) => campaigns.getFor(getCurrentUser(req), params.campaignId));
  mount(router, applyToCampaignEndpoint, async ({ params, body }, { req }) => campaigns.apply(getCurrentUser(req), params.campaignId, body));
  mount(router, withdrawApplicationEndpoint, async ({ params }, { req }) => campaigns.withdraw(getCurrentUser(req), params.campaignId));
  mount(router, answerCampaignInvitationEndpoint, async ({ params, body }, { req }) => campaigns.answer(getCurrentUser(req), params.campaignId, body.accept));
  mount(router, claimCampaignKeyEndpoint, async ({ params, body }, { req }) => campaigns.claim(getCurrentUser(req), params.campaignId, body.keyPlatform));
  mount(router, createPromoCodeEndpoint, async ({ params, body }, { req }) => campaigns.createPromoCode(getCurrentUser(req), params.campaignId, body));

  mount(router, adminListCampaignsEndpoint, async () => ({ campaigns: await campaigns.adminList() }));
  mount(router, adminCreateCampaignEndpoint, async ({ body }, { req }) => campaigns.create(getCurrentUser(req), body));
  mount(router, adminUpdateCampaignEndpoint, async ({ params, body }, { req }) => campaigns.update(getCurrentUser(req), params.campaignId, body));
  mount(router, adminImportKeysEndpoint, async ({ params, body }, { req }) => campaigns.importKeys(getCurrentUser(req), params.campaignId, body.csv));
  mount(router, adminRecordSalesEndpoint, async ({ params, body }, { req }) => campaigns.recordSales(getCurrentUser(req), params.campaignId, body.csv));
  mount(router, adminListApplicationsEndpoint, async ({ params }) => ({ applications: await campaigns.adminApplications(params.campaignId) }));
  mount(router, adminInviteCreatorEndpoint, async ({ params, body }, { req }) => campaigns.invite(getCurrentUser(req), params.campaignId, body.email));
  mount(router, adminDecideApplicationEndpoint, async ({ params, body }, { req }) =>
    campaigns.decide(getCurrentUser(req), params.campaignId, params.applicationId, body.action),
  );
  return router;
}
