import { z } from 'zod';
import { defineEndpoint, type Endpoint } from '../http/endpoint.ts';
import {
  adminApplicationSchema,
  applicationDecisionSchema,
  applicationIdParamsSchema,
  applyBodySchema,
  campaignIdParamsSchema,
  campaignInputSchema,
  campaignListQuerySchema,
  campaignViewSchema,
  claimBodySchema,
  createPromoCodeBodySchema,
  creatorCampaignSchema,
  inviteCreatorBodySchema,
  keyImportResultSchema,
  publicCampaignSchema,
  recordSalesBodySchema,
  recordSalesResultSchema,
} from './campaigns.ts';

// Campaigns of the partner network (spec §2 Campaigns; §7 shows no calls, these are OnAir's). A
// creator acts on their own account ('user'); the admin portal is administrators only ('admin').

const tag = 'campaigns';
const creatorPath = '/api/v1/partner/campaigns';
const adminPath = '/api/v1/admin/campaigns';

export const CAMPAIGN_LINK_PATH = '/api/v1/public/campaign-links/:slug';
/** Where a tracked link's impression or click came from: the creator site's or an overlay's promo code (impressions), the link itself (clicks). */
export const sponsorHitSources = ['site', 'overlay', 'link'] as const;
export type SponsorHitSource = (typeof sponsorHitSources)[number];
/** The impression pixel's query: who showed the sponsor (the creator site unless told). */
export const sponsorImpressionQuerySchema = z.object({ source: z.enum(['site', 'overlay']).default('site') });
/** The impression pixel of a tracked link, for a page that shows the sponsor. */
export const sponsorImpressionPath = (slug: string, source: 'site' | 'overlay') =>
  `${CAMPAIGN_LINK_PATH.replace(':slug', encodeURIComponent(slug))}/impression?source=${source}`;

export const listPublicCampaignsEndpoint = defineEndpoint({
  id: 'listPublicCampaigns',
  method: 'get',
  path: '/api/v1/public/campaigns',
  summary: 'The marketing campaigns page: the campaigns running now, for anyone.',
  tag,
  access: 'public',
  response: z.object({ campaigns: z.array(publicCampaignSchema) }),
});

export const listCampaignsEndpoint = defineEndpoint({
  id: 'listCampaigns',
  method: 'get',
  path: creatorPath,
  summary: 'Discover (active campaigns) or My campaigns (those the caller applied to, was invited to or joined), with filters.',
  tag,
  access: 'user',
  query: campaignListQuerySchema,
  response: z.object({ campaigns: z.array(creatorCampaignSchema) }),
});

export const getCampaignEndpoint = defineEndpoint({
  id: 'getCampaign',
  method: 'get',
  path: `${creatorPath}/:campaignId`,
  summary: "A campaign's details and resources, the caller's application and eligibility.",
  tag,
  access: 'user',
  params: campaignIdParamsSchema,
  response: creatorCampaignSchema,
});

export const applyToCampaignEndpoint = defineEndpoint({
  id: 'applyToCampaign',
  method: 'post',
  path: `${creatorPath}/:campaignId/application`,
  summary: 'Apply (reviewed campaigns) or join (open ones) after the agreement dialog; eligibility is checked here.',
  tag,
  access: 'user',
  params: campaignIdParamsSchema,
  body: applyBodySchema,
  response: creatorCampaignSchema,
  successStatus: 201,
});

export const withdrawApplicationEndpoint = defineEndpoint({
  id: 'withdrawCampaignApplication',
  method: 'delete',
  path: `${creatorPath}/:campaignId/application`,
  summary: 'Withdraw an application still in review, or leave a campaign before claiming its key.',
  tag,
  access: 'user',
  params: campaignIdParamsSchema,
  response: creatorCampaignSchema,
});

export const answerCampaignInvitationEndpoint = defineEndpoint({
  id: 'answerCampaignInvitation',
  method: 'post',
  path: `${creatorPath}/:campaignId/application/answer`,
  summary: "Accept or decline an administrator's invitation.",
  tag,
  access: 'user',
  params: campaignIdParamsSchema,
  body: z.object({ accept: z.boolean() }),
  response: creatorCampaignSchema,
});

export const claimCampaignKeyEndpoint = defineEndpoint({
  id: 'claimCampaignKey',
  method: 'post',
  path: `${creatorPath}/:campaignId/application/claim`,
  summary: 'The claim dialog: one game key for the platform chosen, once keys are available.',
  tag,
  access: 'user',
  params: campaignIdParamsSchema,
  body: claimBodySchema,
  response: creatorCampaignSchema,
});

export const createPromoCodeEndpoint = defineEndpoint({
  id: 'createCampaignPromoCode',
  method: 'post',
  path: `${creatorPath}/:campaignId/promo-codes`,
  summary: 'The promo code generator: a code of A–Z and digits (generated when left out) with a discount within the campaign range.',
  tag,
  access: 'user',
  params: campaignIdParamsSchema,
  body: createPromoCodeBodySchema,
  response: creatorCampaignSchema,
  successStatus: 201,
});

export const adminListCampaignsEndpoint = defineEndpoint({
  id: 'adminListCampaigns',
  method: 'get',
  path: adminPath,
  summary: 'Admin portal: every campaign, drafts included.',
  tag,
  access: 'admin',
  response: z.object({ campaigns: z.array(campaignViewSchema) }),
});

export const adminCreateCampaignEndpoint = defineEndpoint({
  id: 'adminCreateCampaign',
  method: 'post',
  path: adminPath,
  summary: 'Admin portal: create a campaign (audited).',
  tag,
  access: 'admin',
  body: campaignInputSchema,
  response: campaignViewSchema,
  successStatus: 201,
});

export const adminUpdateCampaignEndpoint = defineEndpoint({
  id: 'adminUpdateCampaign',
  method: 'put',
  path: `${adminPath}/:campaignId`,
  summary: 'Admin portal: edit a campaign (audited).',
  tag,
  access: 'admin',
  params: campaignIdParamsSchema,
  body: campaignInputSchema,
  response: campaignViewSchema,
});

export const adminImportKeysEndpoint = defineEndpoint({
  id: 'adminImportCampaignKeys',
  method: 'post',
  path: `${adminPath}/:campaignId/keys`,
  summary: 'Admin portal: import game keys from CSV (columns key, platform); all or nothing, duplicates and formula cells refused.',
  tag,
  access: 'admin',
  params: campaignIdParamsSchema,
  body: z.object({ csv: z.string().min(1, 'The file is empty').max(2_000_000, 'Import at most 2 MB of keys at once') }),
  response: keyImportResultSchema,
});

export const adminRecordSalesEndpoint = defineEndpoint({
  id: 'adminRecordCampaignSales',
  method: 'post',
  path: `${adminPath}/:campaignId/sales`,
  summary: "Admin portal: a revenue-share campaign's sales by promo code (CSV); each sale credits its creator's ledger once (audited).",
  tag,
  access: 'admin',
  params: campaignIdParamsSchema,
  body: recordSalesBodySchema,
  response: recordSalesResultSchema,
});

export const adminListApplicationsEndpoint = defineEndpoint({
  id: 'adminListCampaignApplications',
  method: 'get',
  path: `${adminPath}/:campaignId/applications`,
  summary: "Admin portal: a campaign's applications and invitations.",
  tag,
  access: 'admin',
  params: campaignIdParamsSchema,
  response: z.object({ applications: z.array(adminApplicationSchema) }),
});

export const adminInviteCreatorEndpoint = defineEndpoint({
  id: 'adminInviteCreatorToCampaign',
  method: 'post',
  path: `${adminPath}/:campaignId/invitations`,
  summary: 'Admin portal: invite a creator by e-mail (they are mailed and see it as Awaits your response).',
  tag,
  access: 'admin',
  params: campaignIdParamsSchema,
  body: inviteCreatorBodySchema,
  response: adminApplicationSchema,
  successStatus: 201,
});

export const adminDecideApplicationEndpoint = defineEndpoint({
  id: 'adminDecideCampaignApplication',
  method: 'post',
  path: `${adminPath}/:campaignId/applications/:applicationId`,
  summary: 'Admin portal: accept or reject an application, or rescind a participation (audited).',
  tag,
  access: 'admin',
  params: applicationIdParamsSchema,
  body: applicationDecisionSchema,
  response: adminApplicationSchema,
});

export const campaignEndpoints: readonly Endpoint[] = [
  listPublicCampaignsEndpoint,
  listCampaignsEndpoint,
  getCampaignEndpoint,
  applyToCampaignEndpoint,
  withdrawApplicationEndpoint,
  answerCampaignInvitationEndpoint,
  claimCampaignKeyEndpoint,
  createPromoCodeEndpoint,
  adminListCampaignsEndpoint,
  adminCreateCampaignEndpoint,
  adminUpdateCampaignEndpoint,
  adminImportKeysEndpoint,
  adminRecordSalesEndpoint,
  adminListApplicationsEndpoint,
  adminInviteCreatorEndpoint,
  adminDecideApplicationEndpoint,
];
