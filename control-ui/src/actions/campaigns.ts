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
  claimCampaignKeyEndpoint,
  createPromoCodeEndpoint,
  getCampaignEndpoint,
  listCampaignsEndpoint,
  listPublicCampaignsEndpoint,
  withdrawApplicationEndpoint,
  type AdminApplication,
  type ApplyBody,
  type CampaignInput,
  type CampaignView,
  type CreatorCampaign,
  type KeyPlatform,
  type PublicCampaign,
  type RecordSalesResult,
} from '@onair/protocol';
import { httpClient, withId, type HttpClient } from '../api/http-client.ts';
import { messageOf } from './api-errors.ts';

/** What a campaign call gives the page: the value, or the server's words for why not. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

async function attempt<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (err) {
    return { ok: false, error: messageOf(err) };
  }
}


export interface CampaignFilters {
  list: 'discover' | 'mine';
  kind?: string;
  platform?: string;
  search?: string;
}

export function loadCampaigns(filters: CampaignFilters, client: HttpClient = httpClient): Promise<Outcome<CreatorCampaign[]>> {
  const query = new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
  return attempt(async () => (await client.getJson(`${listCampaignsEndpoint.path}?${query}`, { response: listCampaignsEndpoint.response })).campaigns);
}

export function loadPublicCampaigns(client: HttpClient = httpClient): Promise<Outcome<PublicCampaign[]>> {
  return attempt(async () => (await client.getJson(listPublicCampaignsEndpoint.path, { response: listPublicCampaignsEndpoint.response })).campaigns);
}

export function loadCampaign(campaignId: string, client: HttpClient = httpClient): Promise<Outcome<CreatorCampaign>> {
  return attempt(() => client.getJson(withId(getCampaignEndpoint.path, { campaignId }), { response: getCampaignEndpoint.response }));
}

export function applyToCampaign(campaignId: string, body: ApplyBody, client: HttpClient = httpClient): Promise<Outcome<CreatorCampaign>> {
  return attempt(() => client.sendJson('POST', withId(applyToCampaignEndpoint.path, { campaignId }), body, { response: applyToCampaignEndpoint.response }));
}

export function withdrawFromCampaign(campaignId: string, client: HttpClient = httpClient): Promise<Outcome<CreatorCampaign>> {
  return attempt(() => client.sendJson('DELETE', withId(withdrawApplicationEndpoint.path, { campaignId }), undefined, { response: withdrawApplicationEndpoint.response }));
}

export function answerCampaignInvitation(campaignId: string, accept: boolean, client: HttpClient = httpClient): Promise<Outcome<CreatorCampaign>> {
  return attempt(() => client.sendJson('POST', withId(answerCampaignInvitationEndpoint.path, { campaignId }), { accept }, { response: answerCampaignInvitationEndpoint.response }));
}

export function claimCampaignKey(campaignId: string, keyPlatform: KeyPlatform, client: HttpClient = httpClient): Promise<Outcome<CreatorCampaign>> {
  return attempt(() => client.sendJson('POST', withId(claimCampaignKeyEndpoint.path, { campaignId }), { keyPlatform }, { response: claimCampaignKeyEndpoint.response }));
}

export function createPromoCode(campaignId: string, code: string | null, discountPercent: number, client: HttpClient = httpClient): Promise<Outcome<CreatorCampaign>> {
  return attempt(() => client.sendJson('POST', withId(createPromoCodeEndpoint.path, { campaignId }), { code, discountPercent }, { response: createPromoCodeEndpoint.response }));
}

// ─── Admin portal ───

export function adminLoadCampaigns(client: HttpClient = httpClient): Promise<Outcome<CampaignView[]>> {
  return attempt(async () => (await client.getJson(adminListCampaignsEndpoint.path, { response: adminListCampaignsEndpoint.response })).campaigns);
}

export function adminCreateCampaign(input: CampaignInput, client: HttpClient = httpClient): Promise<Outcome<CampaignView>> {
  return attempt(() => client.sendJson('POST', adminCreateCampaignEndpoint.path, input, { response: adminCreateCampaignEndpoint.response }));
}

export function adminUpdateCampaign(campaignId: string, input: CampaignInput, client: HttpClient = httpClient): Promise<Outcome<CampaignView>> {
  return attempt(() => client.sendJson('PUT', withId(adminUpdateCampaignEndpoint.path, { campaignId }), input, { response: adminUpdateCampaignEndpoint.response }));
}

export function adminImportKeys(campaignId: string, csv: string, client: HttpClient = httpClient): Promise<Outcome<{ imported: number }>> {
  return attempt(() => client.sendJson('POST', withId(adminImportKeysEndpoint.path, { campaignId }), { csv }, { response: adminImportKeysEndpoint.response }));
}

export function adminRecordSales(campaignId: string, csv: string, client: HttpClient = httpClient): Promise<Outcome<RecordSalesResult>> {
  return attempt(() => client.sendJson('POST', withId(adminRecordSalesEndpoint.path, { campaignId }), { csv }, { response: adminRecordSalesEndpoint.response }));
}

export function adminLoadApplications(campaignId: string, client: HttpClient = httpClient): Promise<Outcome<AdminApplication[]>> {
  return attempt(async () => (await client.getJson(withId(adminListApplicationsEndpoint.path, { campaignId }), { response: adminListApplicationsEndpoint.response })).applications);
}

export function adminDecide(campaignId: string, applicationId: string, action: 'accept' | 'reject' | 'rescind', client: HttpClient = httpClient): Promise<Outcome<AdminApplication>> {
  return attempt(() => client.sendJson('POST', withId(adminDecideApplicationEndpoint.path, { campaignId, applicationId }), { action }, { response: adminDecideApplicationEndpoint.response }));
}

export function adminInviteCreator(campaignId: string, email: string, client: HttpClient = httpClient): Promise<Outcome<AdminApplication>> {
  return attempt(() => client.sendJson('POST', withId(adminInviteCreatorEndpoint.path, { campaignId }), { email }, { response: adminInviteCreatorEndpoint.response }));
}
