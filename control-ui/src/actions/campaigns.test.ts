import { describe, expect, it } from 'vitest';
import type { HttpClient } from '../api/http-client.ts';
import { RequestFailedError } from '../api/http-errors.ts';
import { claimCampaignKey, loadCampaigns } from './campaigns.ts';

describe('campaign actions', () => {
  it("give the page the api's words for a refusal", async () => {
    const error = { code: 'CONFLICT', message: 'No Steam key is left in this campaign. Every key was claimed.' };
    const client: HttpClient = { getJson: () => Promise.reject(new RequestFailedError(409, { error })), sendJson: () => Promise.reject(new RequestFailedError(409, { error })) };
    expect(await claimCampaignKey('c1', 'Steam', client)).toEqual({ ok: false, error: error.message });
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
});
