import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EmptyState } from './EmptyState.tsx';
import { Switch } from './Switch.tsx';
import { Tabs } from './Tabs.tsx';

describe('Tabs', () => {
  const tabs = [
    { id: 'one', label: 'One', panel: <p>first panel</p> },
    { id: 'two', label: 'Two', panel: <p>second panel</p> },
  ] as const;

  it('mounts only the initial tab’s panel and keeps only that tab in the tab order', () => {
    const html = renderToString(<Tabs label="Example" tabs={tabs} initialTab="two" />);
    expect(html).toContain('second panel');
    expect(html).not.toContain('first panel');
    expect(html).toMatch(/aria-selected="false" [^>]*tabindex="-1"[^>]*>One</);
    expect(html).toMatch(/aria-selected="true" [^>]*tabindex="0"[^>]*>Two</);
  });

  it('ties each panel to its tab for assistive technology', () => {
    const html = renderToString(<Tabs label="Example" tabs={tabs} initialTab="one" />);
    const tabId = /role="tab" id="([^"]+)"[^>]*aria-controls="([^"]+)"/.exec(html);
    expect(tabId).not.toBeNull();
    expect(html).toContain(`role="tabpanel" id="${tabId?.[2]}" aria-labelledby="${tabId?.[1]}"`);
  });
});

describe('Switch', () => {
  it('is a labelled switch that reports its state', () => {
    const html = renderToString(<Switch label="Mirror Camera" checked onCheckedChange={() => {}} />);
    expect(html).toMatch(/role="switch" aria-checked="true"/);
    const id = /role="switch"[^>]* id="([^"]+)"|id="([^"]+)"[^>]*role="switch"/.exec(html);
    const switchId = id?.[1] ?? id?.[2];
    expect(switchId).toBeDefined();
    expect(html).toContain(`for="${switchId}">Mirror Camera</label>`);
  });
});

describe('EmptyState', () => {
  it('shows its title and explanation', () => {
    const html = renderToString(
      <EmptyState title="No guests yet">
        <p>Guests who join appear here.</p>
      </EmptyState>,
    );
    expect(html).toContain('No guests yet');
    expect(html).toContain('Guests who join appear here.');
  });
});
