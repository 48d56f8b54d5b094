import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DestinationLimitNote, RecordNotInPlanNote } from './PlanLimitNotes.tsx';

const render = (node: ReactNode) => renderToString(<MemoryRouter>{node}</MemoryRouter>);

describe('plan limits in the destinations panel (issue 52: said where they are, before a click fails)', () => {
  it('at the destination limit, the note says how many the plan streams to and offers the upgrade', () => {
    const html = render(<DestinationLimitNote maximum={2} />);
    expect(html).toContain('Your plan streams to 2 destinations at once. Premium has no limit.');
    expect(html).toContain('id="destination-limit-reason"');
    expect(html).toContain('>Upgrade</button>');
    expect(render(<DestinationLimitNote maximum={1} />)).toContain('Your plan streams to 1 destination at once.');
  });

  it('the Record switch of a plan without recording is described by why', () => {
    const html = render(<RecordNotInPlanNote />);
    expect(html).toContain('Recording is not in your plan: Premium records each broadcast and keeps it 30 days.');
    expect(html).toContain('id="record-not-in-plan"');
  });
});
