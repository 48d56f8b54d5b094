import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { sourceDefaults, type Source } from '@onair/protocol';
import { LayerContent } from './LayerContent.tsx';

const id = '7d3e9f1a-2b4c-4d5e-8f6a-1b2c3d4e5f60';

function render(source: Source): string {
  return renderToString(<LayerContent source={source} />);
}

describe('LayerContent placeholders (spec §2)', () => {
  // Server rendering reads the stores' initial state (no devices listed yet), which is exactly
  // the case of a camera this browser cannot show.
  it('a camera this browser has no device for shows Camera Offline with its display name', () => {
    const html = render({ id, kind: 'webcam', name: 'Camera', settings: { ...sourceDefaults.webcam, webcamDeviceId: 'default', displayName: 'Ana' } });
    expect(html).toContain('Camera Offline');
    expect(html).toContain('Ana');
  });

  it.each([
    [{ id, kind: 'screenshare', name: 'Screen', settings: sourceDefaults.screenshare }, 'Screenshare Offline'],
    [{ id, kind: 'game', name: 'Game', settings: sourceDefaults.game }, 'Game Source Offline'],
    [{ id, kind: 'participant', name: 'Guest', settings: sourceDefaults.participant }, 'Camera Offline'],
    [{ id, kind: 'webpage', name: 'Page', settings: { ...sourceDefaults.webpage, config: { ...sourceDefaults.webpage.config, url: 'https://example.com/' } } }, 'Browser Source'],
    [{ id, kind: 'webpage', name: 'Page', settings: sourceDefaults.webpage }, 'Preview unavailable'],
  ] as [Source, string][])('%#: %s shows its placeholder', (source, text) => {
    expect(render(source)).toContain(text);
  });
});
