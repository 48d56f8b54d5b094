import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EmptyState } from './EmptyState.tsx';
import { Select } from './Select.tsx';
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

describe('Select', () => {
  const options = [
    { value: '', label: 'No microphone' },
    { value: 'mic-1', label: 'USB microphone' },
    { value: 'mic-2', label: 'Headset', disabled: true },
  ];
  const render = (value: string | null, opts = options) => renderToString(<Select id="mic" value={value} options={opts} onValueChange={() => {}} placeholder="Default microphone" />);

  it('is a labelled combobox button showing the chosen option, never a visible native select', () => {
    const html = render('mic-1');
    expect(html).toMatch(/<button[^>]*role="combobox"[^>]*id="mic"|<button[^>]*id="mic"[^>]*role="combobox"/);
    expect(html).toContain('USB microphone');
    // Radix keeps a hidden native select for forms only.
    expect(html).not.toMatch(/<select(?![^>]*aria-hidden="true")/);
  });

  it('shows the empty-string option as a choice, and the placeholder when nothing known is chosen', () => {
    expect(render('')).toContain('No microphone');
    expect(render('gone')).toContain('Default microphone');
    expect(render(null)).toContain('Default microphone');
  });

  it('is disabled when there is nothing to choose', () => {
    expect(render(null, [])).toMatch(/<button[^>]*disabled=""/);
  });
});
