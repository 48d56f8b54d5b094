import { describe, expect, it } from 'vitest';
import { partnerEndpoints } from '../partner-endpoints.ts';
import { capabilityWords, channelAllows, channelCapabilities, permissionGroups, type ChannelCapability } from '../channel-permissions.ts';
import { personalInfoSchema } from './profile.ts';
import { createInviteBodySchema } from './collaborators.ts';

describe('the channel permission table', () => {
  it('lets the owner do everything and a collaborator only what a held group grants', () => {
    for (const capability of Object.keys(channelCapabilities) as ChannelCapability[]) {
      expect(channelAllows({ kind: 'owner' }, capability)).toBe(true);
      const needs: string | readonly string[] = channelCapabilities[capability];
      for (const group of permissionGroups) {
        const expected = needs === 'any group' || needs === group || (typeof needs !== 'string' && needs.includes(group));
        expect(channelAllows({ kind: 'collaborator', groups: [group] }, capability), `${capability} with ${group}`).toBe(expected);
      }
      expect(channelAllows({ kind: 'collaborator', groups: [] }, capability)).toBe(false);
    }
    expect(capabilityWords('view stream stats')).toBe('Analytics (Stream stats)');
    expect(capabilityWords('view overlays')).toBe('Overlay (View overlays) or Overlay (Edit overlays)');
    expect(channelAllows({ kind: 'collaborator', groups: ['overlay.edit'] }, 'view overlays')).toBe(true);
    expect(channelAllows({ kind: 'collaborator', groups: ['overlay.view'] }, 'edit overlays')).toBe(false);
  });

  it('names a capability on every channel endpoint', () => {
    for (const endpoint of partnerEndpoints) {
      if (endpoint.path.includes(':channelId')) expect(endpoint.channelCapability, endpoint.id).toBeDefined();
      else expect(endpoint.channelCapability, endpoint.id).toBeUndefined();
    }
  });
});

describe('partner validation words (spec §5)', () => {
  const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues.map((i) => i.message) ?? [];

  it('words invitees as the spec does', () => {
    expect(messages(createInviteBodySchema.safeParse({ invitee: { kind: 'email', email: 'nope' }, permissions: ['analytics'] }))).toEqual([
      'Enter a valid email address',
    ]);
    expect(messages(createInviteBodySchema.safeParse({ invitee: { kind: 'twitch', username: 'x'.repeat(42) }, permissions: ['analytics'] }))).toEqual([
      'Keep the text under 42 characters and use only Latin letters',
    ]);
    expect(createInviteBodySchema.safeParse({ invitee: { kind: 'twitch', username: 'x'.repeat(41) }, permissions: ['analytics'] }).success).toBe(true);
    expect(messages(createInviteBodySchema.safeParse({ invitee: { kind: 'twitch', username: '_x' }, permissions: ['analytics'] }))).toEqual([
      'Enter a valid Twitch username',
    ]);
  });

  it('requires every field of the account with "This field is required"', () => {
    const result = personalInfoSchema.safeParse({
      username: '',
      firstName: '',
      lastName: '',
      identity: '',
      birthdate: '1990-01-01',
      country: 'DE',
      contentLanguage: 'de',
      streamingDevices: ['PC'],
      mainPlatform: 'X',
      discoverySource: 'Other',
    });
    expect(messages(result)).toEqual(['This field is required', 'This field is required', 'This field is required', 'This field is required']);
  });
});
