import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { DestinationView, LocalStream } from '@onair/protocol';
import { TooltipProvider } from '../../components/Tooltip.tsx';
import type { LocalStreamEntry } from '../../stores/index.ts';
import { LocalStreamAddressView, maskedPlayUrl } from './LocalStream.tsx';
import { LocalWatchScreen, NOTHING_LIVE_TEXT } from './LocalWatchPlayer.tsx';

const destinationId = '00000000-0000-4000-8000-000000000001';
const projectId = '00000000-0000-4000-8000-000000000002';
const NAME = 'local_d41d8cd98f00b204';
const local: DestinationView = {
  id: destinationId,
  projectId,
  type: 'Local',
  providerId: 'local',
  name: 'Local preview server',
  enabled: true,
  username: null,
  logo: null,
  dashboardUrl: null,
  settings: {},
  rtmpUrl: 'rtmp://127.0.0.1:19350/live',
  streamKeyMasked: '••••••••',
  authenticated: true,
  needsSignIn: false,
  autoLive: false,
  canvas: 'horizontal',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const stream = (over: Partial<LocalStream> = {}): LocalStream => ({
  destinationId,
  playUrl: `rtmp://127.0.0.1:19350/live/${NAME}`,
  hlsUrl: `/api/v1/projects/${projectId}/destinations/${destinationId}/watch/index.m3u8`,
  watchDelaySeconds: 6,
  ...over,
});

const ready = (view = stream()): LocalStreamEntry => ({ status: 'ready', view, error: null });
const address = (entry: LocalStreamEntry | undefined, shown = false, onRotate?: () => void) =>
  renderToString(
    <TooltipProvider>
      <LocalStreamAddressView destinationId={local.id} entry={entry} shown={shown} onRotate={onRotate} />
    </TooltipProvider>,
  );

describe("a Local destination's address", () => {
  it('masks the stream name until Show, with Copy and Watch', () => {
    const hidden = address(ready());
    expect(hidden).toContain('rtmp://127.0.0.1:19350/live/••••••••');
    expect(hidden).not.toContain(NAME);
    expect(hidden).toContain('aria-label="Show stream name"');
    expect(hidden).toContain('aria-label="Copy Local stream address"');
    expect(hidden).toMatch(/<button[^>]*>.*Watch<\/button>/);

    const shown = address(ready(), true);
    expect(shown).toContain(`rtmp://127.0.0.1:19350/live/${NAME}`);
    expect(shown).toContain('aria-label="Hide stream name"');
  });

  it('offers a new address only where it is asked to (the Edit dialog), not on the card', () => {
    expect(address(ready())).not.toContain('Give this stream a new address');
    expect(address(ready(), false, () => {})).toContain('aria-label="Give this stream a new address"');
  });

  it('offers no Watch button when the server cannot play Local streams in the studio', () => {
    const html = address(ready(stream({ hlsUrl: null, watchDelaySeconds: null })));
    expect(html).toContain('aria-label="Copy Local stream address"');
    expect(html).not.toContain('Watch</button>');
  });

  it('says it is looking the address up, or why it could not', () => {
    expect(address(undefined)).toContain('Looking up where to watch this stream');
    expect(address({ status: 'loading', view: null, error: null })).toContain('Looking up where to watch this stream');
    expect(address({ status: 'error', view: null, error: 'This destination does not exist.' })).toContain('This destination does not exist.');
  });

  it('keeps the address readable up to the stream name', () => {
    expect(maskedPlayUrl('rtmp://h:1/live/abc')).toBe('rtmp://h:1/live/••••••••');
  });
});

describe('the Watch player', () => {
  const screen = (state: Parameters<typeof LocalWatchScreen>[0]['state'], view = stream(), error: string | null = null) =>
    renderToString(<LocalWatchScreen view={view} state={state} error={error} />);

  it('says how far behind the program it plays', () => {
    const playing = screen('playing');
    expect(playing).toContain('About 6 s behind the program.');
    expect(playing).not.toContain('role="status"');
    expect(playing).toMatch(/<video[^>]*controls/);
    expect(playing).toMatch(/<video[^>]*muted/);
  });

  it('says what to do while nothing is live yet', () => {
    const offline = screen('offline');
    expect(offline).toContain(NOTHING_LIVE_TEXT);
    expect(NOTHING_LIVE_TEXT).toBe('Nothing is live on this address yet. Go live with Local on to watch it here.');
    expect(offline).not.toMatch(/<video[^>]*controls/);
  });

  it('says when it is connecting, when the browser cannot play, and what went wrong', () => {
    expect(screen('connecting')).toContain('Connecting…');
    expect(screen('unsupported')).toContain('This browser cannot play the stream.');
    expect(screen('error', stream(), 'The stream cannot be played here.')).toContain('The stream cannot be played here.');
  });
});
