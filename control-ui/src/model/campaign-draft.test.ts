import { describe, expect, it } from 'vitest';
import { campaignInputSchema, type CampaignView } from '@onair/protocol';
import { draftOf, emptyDraft, toInput } from './campaign-draft.ts';

const saved: CampaignView = {
  id: 'c1',
  name: 'Skyward launch',
  kind: 'game-key',
  status: 'paused',
  summary: 'Play Skyward on stream',
  description: 'Keys for the launch week.',
  game: 'Skyward',
  genre: 'Platformer',
  developer: 'Cloud Works',
  publisher: 'Up Games',
  businessModel: 'Premium',
  platforms: ['Steam', 'GOG'],
  geo: ['US', 'CA'],
  requirements: { minFollowers: 100, minSubscribers: 5, minTotalViews: null, minAverageViewers30d: 10, minHoursStreamed30d: 12 },
  requiresReview: false,
  revenueSharePercent: null,
  revenueShareEndsAt: null,
  promoDiscount: { kind: 'range', minPercent: 5, maxPercent: 20 },
  storeUrl: 'https://store.example.com/skyward',
  keysAvailableAt: '2026-12-01T10:00:00.000Z',
  expiresAt: '2026-12-31T10:00:00.000Z',
  resources: [{ title: 'Press kit', url: 'https://example.com/kit' }],
  keys: { total: 2, available: 2, byPlatform: [] },
  createdAt: '2026-11-25T12:00:00.000Z',
};

describe('the campaign form', () => {
  it('sends back every field of a saved campaign unchanged when nothing is edited', () => {
    const input = campaignInputSchema.parse(toInput(draftOf(saved)));
    const { id: _id, keys: _keys, createdAt: _createdAt, ...fields } = saved;
    expect(input).toEqual(fields);
  });

  it('turns a single discount into a fixed one, typed country codes into a list, and empty rows into nothing', () => {
    const input = toInput({ ...emptyDraft, name: 'N', game: 'G', promoMin: '10', geo: 'us, gb  de', resources: [{ title: '', url: '' }], minFollowers: '0' });
    expect(input.promoDiscount).toEqual({ kind: 'fixed', percent: 10 });
    expect(input.geo).toEqual(['US', 'GB', 'DE']);
    expect(input.resources).toEqual([]);
    expect(input.requirements?.minFollowers).toBe(0);
    expect(input.requirements?.minSubscribers).toBeNull();
  });

  it('keeps a revenue-share campaign’s percent and end, and no key platforms', () => {
    const input = toInput({ ...emptyDraft, kind: 'revenue-share', name: 'N', game: 'G', revenueSharePercent: '12.5', revenueShareEndsAt: '2027-01-31T12:00' });
    expect(input.platforms).toEqual([]);
    expect(input.revenueSharePercent).toBe(12.5);
    expect(input.revenueShareEndsAt).toBe(new Date('2027-01-31T12:00').toISOString());
  });
});
