import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderProblemText, sourceDefaults, type Source } from '@onair/protocol';
import { closeStudio } from '../../actions/studio.ts';
import { receiveRenderStatus } from '../../actions/studio-updates.ts';
import { initialStudioState, useStudioStore } from '../../stores/index.ts';
import { LayerContent, WebpagePreview } from './LayerContent.tsx';

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
    [{ id, kind: 'participant', name: 'Guest 1', settings: sourceDefaults.participant }, 'Waiting for guest'],
    [{ id, kind: 'participant', name: 'Ada', settings: { ...sourceDefaults.participant, userId: id, displayName: 'Ada' } }, 'Camera Offline'],
    [
      { id, kind: 'webpage', name: 'Page', settings: { ...sourceDefaults.webpage, config: { ...sourceDefaults.webpage.config, url: 'https://example.com/' } } },
      'Browser Source',
    ],
    [{ id, kind: 'webpage', name: 'Page', settings: sourceDefaults.webpage }, 'Preview unavailable'],
  ] as [Source, string][])('%#: %s shows its placeholder', (source, text) => {
    expect(render(source)).toContain(text);
  });
});

// Server rendering reads the stores' initial state, so the page's placeholder is rendered from the
// status the action stored, as LayerContent passes it.
describe('A web page the render workers report on', () => {
  const projectId = '0b6a1c3e-5d7f-4a9b-8c2d-3e4f5a6b7c8d';
  const page = {
    id,
    kind: 'webpage',
    name: 'Page',
    settings: { ...sourceDefaults.webpage, config: { ...sourceDefaults.webpage.config, url: 'https://example.com/' } },
  } as const;
  const reason = renderProblemText('ADDRESS_REFUSED', 'it redirects to 10.0.0.1, a private network address');
  const shown = () => renderToString(<WebpagePreview source={page} render={useStudioStore.getState().renders[id]} />);

  beforeEach(() => useStudioStore.setState({ ...initialStudioState(), projectId, status: 'ready' }));
  afterEach(() => closeStudio());

  it("shows 'Preview unavailable' with the reason once the page is refused, and the page again once it is live", () => {
    expect(shown()).toContain('Browser Source');
    receiveRenderStatus({ type: 'render.status', projectId, sourceId: id, state: 'refused', reason });
    const refused = shown();
    expect(refused).toContain('Preview unavailable');
    expect(refused).toContain(reason);
    expect(refused).not.toContain('Browser Source');

    receiveRenderStatus({ type: 'render.status', projectId, sourceId: id, state: 'live' });
    const live = shown();
    expect(live).toContain('Browser Source');
    expect(live).not.toContain(reason);
  });

  it('shows the reason while a page that failed to load waits for its next attempt', () => {
    const failed = renderProblemText('LOAD_FAILED', 'net::ERR_NAME_NOT_RESOLVED');
    receiveRenderStatus({ type: 'render.status', projectId, sourceId: id, state: 'unavailable', reason: failed });
    expect(shown()).toContain(failed);
  });

  it("ignores another project's status", () => {
    receiveRenderStatus({ type: 'render.status', projectId: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a', sourceId: id, state: 'refused', reason });
    expect(shown()).toContain('Browser Source');
  });
});
