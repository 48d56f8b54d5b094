import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Card } from './Card.tsx';
import { EmptyState } from './EmptyState.tsx';
import { FormField, TextField } from './FormField.tsx';
import { Select } from './Select.tsx';
import { Switch } from './Switch.tsx';
import { Table } from './Table.tsx';
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
  const render = (value: string | null, opts = options) =>
    renderToString(<Select id="mic" value={value} options={opts} onValueChange={() => {}} placeholder="Default microphone" />);

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

describe('FormField and TextField', () => {
  it('labels its control, ties the hint and the error to it, and marks it invalid', () => {
    const html = renderToString(
      <TextField id="name" label="Legal name" value="Ada" onChange={() => {}} hint="As on your tax form" error="Enter your legal name" />,
    );
    expect(html).toContain('for="name"');
    expect(html).toMatch(
      /<input[^>]*id="name"[^>]*aria-invalid="true"[^>]*aria-describedby="name-hint name-error"|<input[^>]*aria-invalid="true"[^>]*aria-describedby="name-hint name-error"[^>]*id="name"/,
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain('Enter your legal name');
  });

  it('counts characters against the maximum when asked, and gives a render function the id it made', () => {
    expect(renderToString(<TextField label="Title" value="Hello" maxLength={100} counter onChange={() => {}} />)).toContain('5<!-- -->/<!-- -->100');
    const html = renderToString(
      <FormField label="Camera">{(control) => <button id={control.id} type="button" aria-invalid={control['aria-invalid']} />}</FormField>,
    );
    const id = /<button id="([^"]+)"/.exec(html)?.[1];
    expect(id).toBeDefined();
    expect(html).toContain(`for="${id}"`);
  });

  it('is a textarea when multiline', () => {
    expect(renderToString(<TextField label="Message" value="" multiline onChange={() => {}} />)).toMatch(/<textarea/);
  });
});

describe('Table', () => {
  const rows = [
    { id: 'a', name: 'Ada', amount: '$6.00' },
    { id: 'b', name: 'Bea', amount: '$2.00' },
  ];
  const columns = [
    { key: 'name', header: 'Name', rowHeader: true, cell: (r: (typeof rows)[number]) => r.name },
    { key: 'amount', header: 'Amount', align: 'end' as const, cell: (r: (typeof rows)[number]) => r.amount },
  ];

  it('has column headers, a row header per row and one row per item', () => {
    const html = renderToString(<Table aria-label="Credits" columns={columns} rows={rows} rowKey={(r) => r.id} />);
    expect(html).toContain('aria-label="Credits"');
    expect(html.match(/<th scope="col"/g)).toHaveLength(2);
    expect(html.match(/<th scope="row"[^>]*>(Ada|Bea)</g)).toHaveLength(2);
    expect(html.match(/<tr/g)).toHaveLength(3);
  });

  it('says so when there is nothing, and leaves the header out when asked', () => {
    expect(renderToString(<Table columns={columns} rows={[]} rowKey={(r) => r.id} empty="No credits yet" />)).toContain('No credits yet');
    expect(renderToString(<Table columns={columns} rows={rows} rowKey={(r) => r.id} showHeader={false} />)).not.toContain('<thead');
  });
});

describe('Card', () => {
  it('is the element asked for, with its heading', () => {
    const html = renderToString(
      <Card as="section" variant="section" heading="Revenue" aria-label="Revenue">
        <p>figures</p>
      </Card>,
    );
    expect(html).toMatch(/^<section[^>]*aria-label="Revenue"/);
    expect(html).toContain('<h2');
    expect(html).toContain('Revenue</h2>');
  });
});
