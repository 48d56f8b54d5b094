import { describe, expect, it } from 'vitest';
import {
  canHideOrReplaceLogo,
  chooseCurrentSubscription,
  defaultResolutionFor,
  isEnabled,
  maximumDestinations,
  maximumScenes,
  planEntitlements,
  resolutionOptions,
  resolutions,
  roleOf,
} from './plans.ts';

describe('entitlement helpers (spec §6)', () => {
  it('a flag is on only for the exact string "true"', () => {
    expect(isEnabled({ 'can-go-live': 'true' }, 'can-go-live')).toBe(true);
    expect(isEnabled({ 'can-go-live': 'TRUE' }, 'can-go-live')).toBe(false);
    expect(isEnabled({ 'can-go-live': '1' }, 'can-go-live')).toBe(false);
    expect(isEnabled({}, 'can-go-live')).toBe(false);
  });

  it('maximum destinations defaults to 2 and "Unlimited" means no limit', () => {
    expect(maximumDestinations({})).toBe(2);
    expect(maximumDestinations({ 'maximum-destinations': '5' })).toBe(5);
    expect(maximumDestinations({ 'maximum-destinations': 'Unlimited' })).toBe(Number.POSITIVE_INFINITY);
    expect(maximumDestinations({ 'maximum-destinations': 'lots' })).toBe(2);
  });

  it('Free: 3 scenes and the logo on every stream; Premium and VIP: 20 scenes and their own logo', () => {
    expect(maximumScenes(planEntitlements.Free)).toBe(3);
    expect(canHideOrReplaceLogo(planEntitlements.Free)).toBe(false);
    for (const plan of ['Premium', 'VIP'] as const) {
      expect(maximumScenes(planEntitlements[plan])).toBe(20);
      expect(canHideOrReplaceLogo(planEntitlements[plan])).toBe(true);
    }
    expect(maximumScenes({})).toBe(3);
  });
});

describe('resolutions (spec §9)', () => {
  it('are 480p 854x480, 720p 1280x720 and 1080p 1920x1080, all at 30 fps', () => {
    expect(Object.values(resolutions).map((r) => [r.id, r.width, r.height, r.fps])).toEqual([
      ['480p', 854, 480, 30],
      ['720p', 1280, 720, 30],
      ['1080p', 1920, 1080, 30],
    ]);
  });

  it('Free may pick 480p or 720p and starts at 720p; paid plans reach 1080p and start there', () => {
    expect(resolutionOptions(planEntitlements.Free).map((o) => [o.id, o.available, o.upgradeTooltip])).toEqual([
      ['480p', true, null],
      ['720p', true, null],
      ['1080p', false, 'Stream at 1080p'],
    ]);
    expect(defaultResolutionFor(planEntitlements.Free)).toBe('720p');
    expect(defaultResolutionFor(planEntitlements.Premium)).toBe('1080p');
    expect(defaultResolutionFor(planEntitlements.Legacy)).toBe('1080p');
    expect(defaultResolutionFor({})).toBe('480p');
  });
});

describe('current subscription (spec §4)', () => {
  const sub = (status: string, planId: string, itemPriceId: string) => ({ status, planId, itemPriceId });
  it('ignores cancelled, paused and future; prefers a non-free price; else the first left', () => {
    expect(chooseCurrentSubscription([sub('active', 'Free', 'free-USD-Monthly'), sub('active', 'Premium', 'Premium-USD-Monthly')])?.planId).toBe('Premium');
    expect(chooseCurrentSubscription([sub('cancelled', 'Premium', 'Premium-USD-Monthly'), sub('active', 'Free', 'free-USD-Monthly')])?.planId).toBe('Free');
    expect(chooseCurrentSubscription([sub('future', 'VIP', 'VIP-USD-Monthly')])).toBeUndefined();
  });
  it('the role is Free without a subscription', () => {
    expect(roleOf([])).toBe('Free');
    expect(roleOf([sub('active', 'VIP', 'VIP-USD-Monthly')])).toBe('VIP');
  });
});
