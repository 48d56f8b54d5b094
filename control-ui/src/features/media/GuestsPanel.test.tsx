import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { sourceDefaults, type Source } from '@onair/protocol';
import { TooltipProvider } from '../../components/Tooltip.tsx';
import { GuestsPanel, GuestTileView } from './GuestsPanel.tsx';

const render = (node: ReactNode) => renderToString(<TooltipProvider>{node}</TooltipProvider>);

const tile = { mid: '4', participantId: '0b6a1c3e-5d7f-4a9b-8c2d-3e4f5a6b7c8d', userId: 'guest-user-1' };
const guestSource = {
  id: '7d3e9f1a-2b4c-4d5e-8f6a-1b2c3d4e5f60',
  kind: 'participant',
  name: 'Guest',
  settings: { ...sourceDefaults.participant, userId: 'guest-user-1', displayName: 'Ana', volume: 0.4 },
} as Extract<Source, { kind: 'participant' }>;

describe('Guests tab (spec §2, §4 "Guest tile")', () => {
  it('without guests: the host tile with its buttons, and a word on how guests arrive', () => {
    const html = render(<GuestsPanel />);
    expect(html).toContain('Your camera');
    expect(html).toContain('Turn camera');
    expect(html).toContain('Camera settings');
    expect(html).toContain('No guests yet');
  });

  it('a guest without a picture yet shows Camera Offline, their name, their source volume and Add to scene', () => {
    const html = render(<GuestTileView tile={tile} stream={null} source={guestSource} />);
    expect(html).toContain('Camera Offline');
    expect(html).toContain('Ana');
    expect(html).toContain('Add to scene');
    expect(html).toMatch(/type="range"[^>]*value="0.4"/);
    expect(html).toContain('Mute Guest');
  });

  it('a guest not in any scene yet has no volume to set, and is called Guest', () => {
    const html = render(<GuestTileView tile={tile} stream={null} source={undefined} />);
    expect(html).toContain('Add to a scene to set the volume');
    expect(html).not.toContain('type="range"');
    expect(html).toContain('data-user-id="guest-user-1"');
  });
});
