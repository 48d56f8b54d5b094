import { renderToString } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DestinationView } from '@onair/protocol';
import { TooltipProvider } from '../../components/Tooltip.tsx';
import { initialFormValues } from '../../model/destinations.ts';
import { initialDestinationsState, useDestinationsStore, type DestinationForm } from '../../stores/index.ts';
import { DestinationFormFields, facebookTargetOptions } from './DestinationFormDialog.tsx';
import { DestinationRow } from './DestinationRow.tsx';

const view = (over: Partial<DestinationView> = {}): DestinationView => ({
  id: '00000000-0000-4000-8000-000000000001',
  projectId: '00000000-0000-4000-8000-000000000002',
  type: 'Twitch',
  providerId: 'twitchtv',
  name: 'Twitch',
  enabled: true,
  username: null,
  logo: null,
  dashboardUrl: null,
  settings: { title: 'Hi' },
  rtmpUrl: null,
  streamKeyMasked: null,
  authenticated: false,
  needsSignIn: false,
  autoLive: false,
  canvas: 'horizontal',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

const form = (over: Partial<DestinationForm>): DestinationForm => ({
  type: 'Twitch',
  editing: null,
  values: initialFormValues(over.type ?? 'Twitch'),
  errors: {},
  formError: null,
  saving: false,
  targets: null,
  ...over,
});

beforeEach(() => useDestinationsStore.setState(initialDestinationsState()));

describe('a destination row', () => {
  it("keeps 'Your {platform} account requires authentication.' with Authenticate until it is authenticated", () => {
    const row = (d: DestinationView) =>
      renderToString(
        <TooltipProvider>
          <DestinationRow destination={d} />
        </TooltipProvider>,
      );
    const html = row(view());
    expect(html).toContain('Your Twitch account requires authentication.');
    expect(html).toMatch(/<button[^>]*>Authenticate<\/button>/);
    expect(row(view({ authenticated: true }))).not.toContain('requires authentication');
  });
  it('says a destination whose access was revoked needs sign-in, what stopped, and offers Reconnect', () => {
    const html = renderToString(
      <TooltipProvider>
        <DestinationRow destination={view({ authenticated: false, needsSignIn: true, username: 'ada' })} />
      </TooltipProvider>,
    );
    expect(html).toContain('Needs sign-in');
    expect(html).toContain('OnAir&#x27;s access to your Twitch account was revoked or expired.');
    expect(html).toMatch(/<button[^>]*>Reconnect<\/button>/);
    expect(html).not.toContain('>Authenticate<');
  });
  // The live health of a row is read from the store, which server rendering does not see: e2e/go-live.spec.ts checks it in the browser.
});

describe('the Add/Edit form', () => {
  it('offers metadata fields and Apply metadata to all for platforms, server and key for custom RTMP', () => {
    const twitch = renderToString(<DestinationFormFields form={form({ type: 'Twitch' })} />);
    expect(twitch).toContain('Apply metadata to all destinations');
    expect(twitch).not.toContain('Server URL');
    const custom = renderToString(<DestinationFormFields form={form({ type: 'CustomRTMP' })} />);
    expect(custom).toContain('Server URL');
    expect(custom).toContain('Stream key');
    expect(custom).not.toContain('Apply metadata');
    expect(custom).toContain('>Add Destination</button>');
  });

  it('shows the rule message under its field', () => {
    const html = renderToString(<DestinationFormFields form={form({ type: 'Twitch', errors: { title: 'Enter a title.' } })} />);
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('Enter a title.');
  });

  it('disables a Facebook target another Facebook destination uses', () => {
    const editing = view({ type: 'Facebook', providerId: 'facebook', authenticated: true, settings: {} });
    const html = renderToString(
      <DestinationFormFields
        form={form({
          type: 'Facebook',
          editing,
          values: initialFormValues('Facebook', editing),
          targets: [
            { id: 'me', name: 'Timeline', type: 'timeline', disabled: false },
            { id: 'page-1', name: 'Ada Streams', type: 'page', disabled: true },
          ],
        })}
      />,
    );
    const text = html.replaceAll('<!-- -->', '');
    // The chosen target shows in the closed list; which targets are disabled is the option list's business.
    expect(text).toMatch(/role="combobox"[^>]*>.*Timeline: Timeline/);
    expect(facebookTargetOptions(form({ targets: [{ id: 'page-1', name: 'Ada Streams', type: 'page', disabled: true }] }).targets ?? [])).toEqual([
      { value: 'page-1', label: 'Page: Ada Streams', disabled: true },
    ]);
    expect(html).toContain('>Save</button>');
  });
});
