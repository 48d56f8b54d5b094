import { describe, expect, it } from 'vitest';
import { arrangeHintOf, followHintOf } from './LayoutBar.tsx';

describe('the layout bar (issue 52)', () => {
  it('says why the layouts look the same with one source, and what to add with none', () => {
    expect(arrangeHintOf(0)).toBe('Add a camera, guest or screen to arrange it.');
    expect(arrangeHintOf(1)).toBe('One source: every layout shows it alone. They differ once a guest, a screen or a second camera joins.');
    expect(arrangeHintOf(2)).toBeNull();
  });

  it('explains the Follow switch in the state it is in', () => {
    expect(followHintOf('grid', undefined)).toBe(
      'On: guests and sources that join or leave the scene are arranged in Grid. Moving one by hand switches it off.',
    );
    expect(followHintOf(undefined, 'solo')).toContain('Off: switch it on to arrange the scene in Solo again');
    expect(followHintOf(undefined, undefined)).toBe('Pick a layout: the scene then follows it as guests and sources join or leave.');
  });
});
