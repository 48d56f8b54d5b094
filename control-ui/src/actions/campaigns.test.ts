import { describe, expect, it } from 'vitest';
import type { HttpClient } from '../api/http-client.ts';
import { RequestFailedError } from '../api/http-errors.ts';
import { initialCampaignsState, useCampaignsStore } from '../stores/index.ts';
import { claimCampaignKey, closeAdminCampaigns, closeCampaigns, loadCampaigns, showAdminApplications, showAdminCampaigns, showCampaigns } from './campaigns.ts';

describe('campaign actions', () => {
  it("give the page the api's words for a refusal", async () => {
    const error = { code: 'CONFLICT', message: 'No Steam key is left in this campaign. Every key was claimed.' };
    const client: HttpClient = {
      getJson: () => Promise.reject(new RequestFailedError(409, { error })),
      sendJson: () => Promise.reject(new RequestFailedError(409, { error })),
    };
    expect(await claimCampaignKey('c1', 'Steam', client)).toEqual({ ok: false, message: error.message, fieldErrors: {} });
  });

  it('ask for the list with only the filters set', async () => {
    const paths: string[] = [];
    const client: HttpClient = {
      getJson: async (path, options) => {
        paths.push(path);
        const parsed = options.response.safeParse({ campaigns: [] });
        if (!parsed.success) throw new Error(parsed.error.message);
        return parsed.data;
      },
      sendJson: () => Promise.reject(new Error('not used')),
    };
    expect(await loadCampaigns({ list: 'mine', platform: 'Steam', search: '' }, client)).toEqual({ ok: true, value: [] });
    expect(paths).toEqual(['/api/v1/partner/campaigns?list=mine&platform=Steam']);
  });

  it('let only the newest list ask land in the store, and empty it when the page closes', async () => {
    useCampaignsStore.setState(initialCampaignsState());
    const answers: ((fail: boolean) => void)[] = [];
    const client: HttpClient = {
      getJson: (_path, options) =>
        new Promise((resolve, reject) => {
          answers.push((fail) => {
            if (fail) return reject(new RequestFailedError(500, { error: { code: 'INTERNAL', message: 'the older ask' } }));
            const parsed = options.response.safeParse({ campaigns: [] });
            if (parsed.success) resolve(parsed.data);
          });
        }),
      sendJson: () => Promise.reject(new Error('not used')),
    };
    const older = showCampaigns({ list: 'discover' }, client);
    const newer = showCampaigns({ list: 'mine' }, client);
    answers[1]?.(false);
    await newer;
    answers[0]?.(true);
    await older;
    expect(useCampaignsStore.getState().list).toEqual({ items: [], error: null });
    closeCampaigns();
    expect(useCampaignsStore.getState().list).toEqual({ items: null, error: null });
  });

  it("keep the admin portal's lists in the store: the newest applications ask lands, a failed read keeps the last list and says why", async () => {
    useCampaignsStore.setState(initialCampaignsState());
    const answers: ((fail: boolean) => void)[] = [];
    const client: HttpClient = {
      getJson: (_path, options) =>
        new Promise((resolve, reject) => {
          answers.push((fail) => {
            if (fail) return reject(new RequestFailedError(500, { error: { code: 'INTERNAL', message: 'Not now' } }));
            const parsed = options.response.safeParse({ campaigns: [], applications: [] });
            if (parsed.success) resolve(parsed.data);
          });
        }),
      sendJson: () => Promise.reject(new Error('not used')),
    };
    const first = showAdminCampaigns(client);
    answers[0]?.(false);
    await first;
    expect(useCampaignsStore.getState().admin).toEqual({ items: [], error: null });
    const again = showAdminCampaigns(client);
    answers[1]?.(true);
    await again;
    expect(useCampaignsStore.getState().admin).toEqual({ items: [], error: 'Not now' });

    const older = showAdminApplications('c1', client);
    const newer = showAdminApplications('c2', client);
    answers[3]?.(false);
    await newer;
    answers[2]?.(true);
    await older;
    expect(useCampaignsStore.getState().applications).toEqual({ campaignId: 'c2', items: [], error: null });
    closeAdminCampaigns();
    expect(useCampaignsStore.getState()).toMatchObject({ admin: { items: null, error: null }, applications: { campaignId: null, items: null, error: null } });
  });
});
