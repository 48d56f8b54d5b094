import { describe, expect, it } from 'vitest';
import { planEntitlements } from '../plans.ts';
import { playsOutputAudio, projectRoles } from '../signaling/roles.ts';
import { linkSegments } from '../chat/chat.ts';
import { chatDraftState, guestChatContentSchema, guestDisplayNameSchema, guestLinkUrl, guestNameProblem, maximumGuestsOf } from './guests.ts';

describe('guest display names', () => {
  it('are optional, trimmed, and at most 40 characters without markup', () => {
    expect(guestDisplayNameSchema.parse('  Grace  ')).toBe('Grace');
    expect(guestDisplayNameSchema.parse('')).toBe('');
    expect(guestNameProblem('x'.repeat(41))).toBe('Your name can be at most 40 characters long.');
    expect(guestNameProblem('<img src=x onerror=alert(1)>')).toBe('Your name cannot contain < or >.');
    expect(guestNameProblem('evil\u202Eexe')).toBe('Your name contains characters that cannot be shown.');
    const long = guestDisplayNameSchema.safeParse('x'.repeat(10_000));
    expect(long.success).toBe(false);
  });
});

describe('Guest Chat (spec §5)', () => {
  it('accepts 1 to 200 characters after trimming', () => {
    expect(guestChatContentSchema.parse('  hi  ')).toBe('hi');
    expect(guestChatContentSchema.safeParse('   ').success).toBe(false);
    expect(guestChatContentSchema.safeParse('x'.repeat(200)).success).toBe(true);
    expect(guestChatContentSchema.safeParse('x'.repeat(201)).success).toBe(false);
    expect(chatDraftState('x'.repeat(201))).toEqual({ length: 201, sendable: false, over: true });
    expect(chatDraftState(' ok ')).toEqual({ length: 2, sendable: true, over: false });
  });

  it('shows links through the one splitter of chat text, never markup', () => {
    expect(linkSegments('see onair.test/notes, <b>x</b>')).toEqual([
      { kind: 'text', value: 'see ' },
      { kind: 'link', value: 'onair.test/notes', href: 'https://onair.test/notes' },
      { kind: 'text', value: ', <b>x</b>' },
    ]);
  });
});

describe('guest limits and roles', () => {
  it('gives Free no guests and Premium and VIP ten (spec §6)', () => {
    expect(maximumGuestsOf(planEntitlements.Free)).toBe(0);
    expect(maximumGuestsOf(planEntitlements.Premium)).toBe(10);
    expect(maximumGuestsOf(planEntitlements.VIP)).toBe(10);
  });

  it('lets only the renderer play the output audio (spec §5)', () => {
    expect(projectRoles.filter(playsOutputAudio)).toEqual(['renderer']);
  });

  it('builds the link from the origin, /guest/, the project and the token', () => {
    expect(guestLinkUrl('http://localhost:8080/', 'p-1', 'a.b')).toBe('http://localhost:8080/guest/p-1?guestToken=a.b');
  });
});
