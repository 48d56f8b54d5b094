import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { sourceDefaults, type Source } from '@onair/protocol';
import { TooltipProvider } from '../../components/Tooltip.tsx';
import { GuestsPanelView, GuestTileView } from './GuestsPanel.tsx';

const render = (node: ReactNode) =>
  renderToString(
    <MemoryRouter>
      <TooltipProvider>{node}</TooltipProvider>
    </MemoryRouter>,
  );

const guest = { id: '0b6a1c3e-5d7f-4a9b-8c2d-3e4f5a6b7c8d', displayName: 'Ana', joinedAt: '2026-11-25T10:00:00.000Z', byRevokedLink: false };
const tile = { mid: '4', participantId: '1c6a1c3e-5d7f-4a9b-8c2d-3e4f5a6b7c8d', userId: guest.id };
const guestSource = {
  id: '7d3e9f1a-2b4c-4d5e-8f6a-1b2c3d4e5f60',
  kind: 'participant',
  name: 'Guest',
  settings: { ...sourceDefaults.participant, userId: guest.id, displayName: 'Ana', volume: 0.4 },
} as Extract<Source, { kind: 'participant' }>;

describe('Guests tab (spec §2, §4 "Guest tile")', () => {
  const invite = { maximum: 10, busy: null, isOwner: true };
  it('without guests, a host sees their own tile and the Invite Guests panel directly', () => {
    const html = render(<GuestsPanelView guests={[]} inviting={false} role="host" invite={invite} />);
    expect(html).toContain('Your camera');
    expect(html).toContain('Camera settings');
    for (const words of ['Invite Guests', 'Copy Guest Link', 'Generate New Link', 'Learn More', '0 of 10 guests in the studio']) expect(html).toContain(words);
    expect(html).not.toContain('Back to guests');
  });

  it('with guests, the list and an Invite Guest button; the invite view has a back button', () => {
    const list = render(<GuestsPanelView guests={[guest]} inviting={false} role="host" invite={invite} />);
    expect(list).toContain('Invite Guest');
    expect(list).not.toContain('Copy Guest Link');
    expect(list).toContain('Remove Ana');
    const people = {
      members: [
        { userId: 'u1', email: 'host@example.test', displayName: null, role: 'host' as const, owner: true },
        { userId: 'u2', email: 'co@example.test', displayName: 'Cora', role: 'cohost' as const, owner: false },
      ],
      invitations: [
        {
          id: '9d3e9f1a-2b4c-4d5e-8f6a-1b2c3d4e5f60',
          email: 'new@example.test',
          role: 'contributor' as const,
          createdAt: '2026-11-25T10:00:00.000Z',
          expiresAt: '2026-12-09T10:00:00.000Z',
        },
      ],
      error: null,
    };
    const withPeople = render(<GuestsPanelView guests={[]} inviting={false} role="host" invite={invite} people={people} />);
    for (const words of ['Co-hosts and contributors', 'Cora', 'Remove co@example.test', 'Contributor · invited', 'Withdraw the invitation of new@example.test'])
      expect(withPeople).toContain(words);
    expect(render(<GuestsPanelView guests={[]} inviting={false} role="contributor" invite={invite} people={people} />)).not.toContain(
      'Co-hosts and contributors',
    );
    expect(render(<GuestsPanelView guests={[guest]} inviting role="host" invite={invite} />)).toContain('Back to guests');
  });

  it('a Free host is told their plan has no guests, with Copy Guest Link off and an Upgrade; a guest of the room sees no invite at all', () => {
    const free = render(<GuestsPanelView guests={[]} inviting={false} role="host" invite={{ ...invite, maximum: 0 }} />);
    expect(free).toContain('Your plan does not include guests, so the guest link is off. Premium lets up to 10 guests join.');
    const copyButton = (html: string) => /<button[^>]*>(?:(?!<button).)*Copy Guest Link<\/button>/.exec(html)?.[0] ?? '';
    expect(copyButton(free)).toContain('disabled=""');
    expect(copyButton(free)).toContain('aria-describedby="guest-limit-reason"');
    expect(free).toContain('Upgrade');
    // With guests in the plan the link works.
    expect(copyButton(render(<GuestsPanelView guests={[]} inviting={false} role="host" invite={invite} />))).not.toContain('disabled');
    const html = render(<GuestsPanelView guests={[]} inviting={false} role="viewer" invite={invite} />);
    expect(html).not.toContain('Copy Guest Link');
    expect(html).toContain('No guests are in the studio.');
  });

  it('a guest without a picture yet shows Camera Offline, their name, the 0–1 slider in 0.01 steps and Add to scene', () => {
    const html = render(<GuestTileView guest={guest} tile={tile} stream={null} source={guestSource} canManage={false} />);
    expect(html).toContain('Camera Offline');
    expect(html).toContain('Ana');
    expect(html).toContain('Add to scene');
    expect(html).toMatch(/type="range"[^>]*min="0"[^>]*max="1"[^>]*step="0.01"[^>]*value="0.4"/);
    expect(html).toContain('Mute Ana');
    expect(html).not.toContain('Remove Ana');
  });

  it('a guest not in any scene yet still has their remembered volume, and is called Guest without a name', () => {
    const html = render(
      <GuestTileView
        guest={{ ...guest, displayName: '' }}
        tile={undefined}
        stream={null}
        source={undefined}
        canManage
        remembered={{ volume: 0.25, muted: true }}
      />,
    );
    expect(html).toMatch(/type="range"[^>]*value="0.25"/);
    expect(html).toContain('Unmute Guest');
    expect(html).toContain(`data-user-id="${guest.id}"`);
  });
});
