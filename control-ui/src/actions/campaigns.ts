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
import { call, type CallQuery } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { initialCampaignsState, useCampaignsStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import type { Result } from './result.ts';

/** A campaign call: its value, or the server's words for why not (no field of a form is marked). */
async function attempt<T>(run: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (err) {
    return { ok: false, message: messageOf(err), fieldErrors: {} };
  }
}

/** The list's filters, as the contract's query types them; an empty search is no filter. */
export type CampaignFilters = { list: 'discover' | 'mine' } & Pick<CallQuery<typeof listCampaignsEndpoint>, 'kind' | 'platform' | 'search'>;

export function loadCampaigns(filters: CampaignFilters, client: HttpClient = httpClient): Promise<Result<CreatorCampaign[]>> {
  const { search, ...rest } = filters;
  return attempt(async () => (await call(listCampaignsEndpoint, { query: { ...rest, ...(search ? { search } : {}) } }, client)).campaigns);
}

// Filters can change faster than the api answers: only the newest ask may land.
let latestList = 0;

/** The partner Campaigns page asks for a list (on opening and on every filter change). */
export async function showCampaigns(filters: CampaignFilters, client: HttpClient = httpClient): Promise<void> {
  const asked = ++latestList;
  const outcome = await loadCampaigns(filters, client);
  if (asked !== latestList) return;
  useCampaignsStore.setState({ list: outcome.ok ? { items: outcome.value, error: null } : { items: null, error: outcome.message } });
}

/** The page closed: what it showed goes, and an answer still on its way is dropped. */
export function closeCampaigns(): void {
  latestList++;
  useCampaignsStore.setState({ list: initialCampaignsState().list });
}

let latestRunning = 0;

/** The public campaigns page opens: the campaigns running now. */
export async function showPublicCampaigns(client: HttpClient = httpClient): Promise<void> {
  const asked = ++latestRunning;
  const outcome = await loadPublicCampaigns(client);
  if (asked !== latestRunning) return;
  useCampaignsStore.setState({ running: outcome.ok ? { items: outcome.value, error: null } : { items: null, error: outcome.message } });
}

export function closePublicCampaigns(): void {
  latestRunning++;
  useCampaignsStore.setState({ running: initialCampaignsState().running });
}

export function loadPublicCampaigns(client: HttpClient = httpClient): Promise<Result<PublicCampaign[]>> {
  return attempt(async () => (await call(listPublicCampaignsEndpoint, {}, client)).campaigns);
}

/** A campaign's page opens: the campaign with the caller's application, read afresh. */
export async function openCampaign(campaignId: string, client: HttpClient = httpClient): Promise<void> {
  useCampaignsStore.setState({ detail: { campaignId, item: null, error: null } });
  const outcome = await loadCampaign(campaignId, client);
  if (useCampaignsStore.getState().detail.campaignId !== campaignId) return;
  useCampaignsStore.setState({ detail: outcome.ok ? { campaignId, item: outcome.value, error: null } : { campaignId, item: null, error: outcome.message } });
}

export function closeCampaign(): void {
  useCampaignsStore.setState({ detail: initialCampaignsState().detail });
}

/** What the creator did to a campaign answers with the campaign as it now is: its open page shows that. */
async function shown(pending: Promise<Result<CreatorCampaign>>): Promise<Result<CreatorCampaign>> {
  const outcome = await pending;
  const { detail } = useCampaignsStore.getState();
  if (outcome.ok && detail.campaignId === outcome.value.campaign.id) useCampaignsStore.setState({ detail: { ...detail, item: outcome.value, error: null } });
  return outcome;
}

export function loadCampaign(campaignId: string, client: HttpClient = httpClient): Promise<Result<CreatorCampaign>> {
  return attempt(() => call(getCampaignEndpoint, { params: { campaignId } }, client));
}

export function applyToCampaign(campaignId: string, body: ApplyBody, client: HttpClient = httpClient): Promise<Result<CreatorCampaign>> {
  return shown(attempt(() => call(applyToCampaignEndpoint, { params: { campaignId }, body }, client)));
}

export function withdrawFromCampaign(campaignId: string, client: HttpClient = httpClient): Promise<Result<CreatorCampaign>> {
  return shown(attempt(() => call(withdrawApplicationEndpoint, { params: { campaignId } }, client)));
}

export function answerCampaignInvitation(campaignId: string, accept: boolean, client: HttpClient = httpClient): Promise<Result<CreatorCampaign>> {
  return shown(attempt(() => call(answerCampaignInvitationEndpoint, { params: { campaignId }, body: { accept } }, client)));
}

export function claimCampaignKey(campaignId: string, keyPlatform: KeyPlatform, client: HttpClient = httpClient): Promise<Result<CreatorCampaign>> {
  return shown(attempt(() => call(claimCampaignKeyEndpoint, { params: { campaignId }, body: { keyPlatform } }, client)));
}

export function createPromoCode(
  campaignId: string,
  code: string | null,
  discountPercent: number,
  client: HttpClient = httpClient,
): Promise<Result<CreatorCampaign>> {
  return shown(attempt(() => call(createPromoCodeEndpoint, { params: { campaignId }, body: { code, discountPercent } }, client)));
}

// ─── Admin portal ───

export function adminLoadCampaigns(client: HttpClient = httpClient): Promise<Result<CampaignView[]>> {
  return attempt(async () => (await call(adminListCampaignsEndpoint, {}, client)).campaigns);
}

export function adminCreateCampaign(input: CampaignInput, client: HttpClient = httpClient): Promise<Result<CampaignView>> {
  return attempt(() => call(adminCreateCampaignEndpoint, { body: input }, client));
}

export function adminUpdateCampaign(campaignId: string, input: CampaignInput, client: HttpClient = httpClient): Promise<Result<CampaignView>> {
  return attempt(() => call(adminUpdateCampaignEndpoint, { params: { campaignId }, body: input }, client));
}

export function adminImportKeys(campaignId: string, csv: string, client: HttpClient = httpClient): Promise<Result<{ imported: number }>> {
  return attempt(() => call(adminImportKeysEndpoint, { params: { campaignId }, body: { csv } }, client));
}

export function adminRecordSales(campaignId: string, csv: string, client: HttpClient = httpClient): Promise<Result<RecordSalesResult>> {
  return attempt(() => call(adminRecordSalesEndpoint, { params: { campaignId }, body: { csv } }, client));
}

export function adminLoadApplications(campaignId: string, client: HttpClient = httpClient): Promise<Result<AdminApplication[]>> {
  return attempt(async () => (await call(adminListApplicationsEndpoint, { params: { campaignId } }, client)).applications);
}

/** The admin portal opens or a campaign changed: every campaign, read again. */
export async function showAdminCampaigns(client: HttpClient = httpClient): Promise<void> {
  const outcome = await adminLoadCampaigns(client);
  useCampaignsStore.setState((s) => ({
    admin: outcome.ok ? { items: outcome.value, error: null } : { items: s.admin.items, error: outcome.message },
  }));
}

let latestApplications = 0;

/** The admin portal's open campaign: its applications (read again after every decision); only the newest ask lands. */
export async function showAdminApplications(campaignId: string, client: HttpClient = httpClient): Promise<void> {
  const asked = ++latestApplications;
  const outcome = await adminLoadApplications(campaignId, client);
  if (asked !== latestApplications) return;
  useCampaignsStore.setState((s) => ({
    applications: outcome.ok
      ? { campaignId, items: outcome.value, error: null }
      : { campaignId, items: s.applications.campaignId === campaignId ? s.applications.items : null, error: outcome.message },
  }));
}

/** The admin portal closes: its lists go with it. */
export function closeAdminCampaigns(): void {
  latestApplications++;
  const { admin, applications } = initialCampaignsState();
  useCampaignsStore.setState({ admin, applications });
}

export function adminDecide(
  campaignId: string,
  applicationId: string,
  action: 'accept' | 'reject' | 'rescind',
  client: HttpClient = httpClient,
): Promise<Result<AdminApplication>> {
  return attempt(() => call(adminDecideApplicationEndpoint, { params: { campaignId, applicationId }, body: { action } }, client));
}

export function adminInviteCreator(campaignId: string, email: string, client: HttpClient = httpClient): Promise<Result<AdminApplication>> {
  return attempt(() => call(adminInviteCreatorEndpoint, { params: { campaignId }, body: { email } }, client));
}
