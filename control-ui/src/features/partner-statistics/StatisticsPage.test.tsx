import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CampaignsPage } from '../partner-campaigns/CampaignsPage.tsx';
import { RevenueShareNote, TimeZoneNote } from './StatisticsPage.tsx';

const render = (element: ReactElement) => renderToString(<RouterProvider router={createMemoryRouter([{ path: '/', element }], { initialEntries: ['/'] })} />);

afterEach(() => {
  vi.unstubAllGlobals();
});

// What a creator reads where they look (issue 57 f and g): which time zone cuts the days, why campaign
// revenue still shows $0, which platforms campaign eligibility reads.
describe('the partner notes', () => {
  it('Statistics say which time zone cuts the days, and that revenue share waits for the publisher’s sales report', () => {
    expect(renderToString(<TimeZoneNote timeZone="America/Los_Angeles" />)).toContain(
      'Days run midnight to midnight, <!-- -->Los Angeles time (America/Los_Angeles).',
    );
    expect(renderToString(<TimeZoneNote timeZone="UTC" />)).toContain('Days run midnight to midnight, <!-- -->UTC.');
    const note = renderToString(<RevenueShareNote currency="usd" />);
    expect(note).toContain('Revenue-share earnings appear here once the game&#x27;s publisher reports its sales and our team imports that report');
    expect(note).toContain('a campaign shows <!-- -->$0.00<!-- --> even if people bought through your link');
  });

  it('Campaigns say eligibility reads Twitch and YouTube only', () => {
    vi.stubGlobal('localStorage', { getItem: () => 'yes', setItem: () => undefined });
    const html = render(<CampaignsPage />);
    expect(html).toContain('Requirements are checked on Twitch and YouTube only');
    expect(html).toContain('Facebook, TikTok and other platforms are not read');
  });
});
