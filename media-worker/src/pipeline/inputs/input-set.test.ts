import { describe, expect, it } from 'vitest';
import { feedToShow, flowing, lookAtFeed, moved, QUIET_LOOKS_TO_STOP, type AttachedFeed } from './input-set.ts';

type Feed = Pick<AttachedFeed, 'pushed' | 'quietLooks'>;
const networkFeed = (): Feed => ({ pushed: 0, quietLooks: Number.POSITIVE_INFINITY });
/** What the look found of a feed. */
const state = (feed: Feed) => ({ moved: moved(feed), flowing: flowing(feed) });

/** Looks at every feed with its jitter buffer's packet count so far, then picks what the layer draws, as InputSet.checkFeeds does. */
function look(input: { feeds: Feed[]; shown: number }, counts: number[]): number {
  input.feeds.forEach((feed, i) => lookAtFeed(feed, counts[i]!));
  input.shown = feedToShow(input);
  return input.shown;
}

describe('which feed of a network input its layer draws', () => {
  it('keeps a picture through a sender silent for one look, and shows the placeholder only after two', () => {
    expect(QUIET_LOOKS_TO_STOP).toBe(2);
    const input = { feeds: [networkFeed()], shown: -1 };
    expect(look(input, [0])).toBe(-1);
    expect(look(input, [30])).toBe(0);
    expect(look(input, [60])).toBe(0);
    // A hiccup of a second (a busy browser): the last frame stays, frozen, and the feed still flows.
    expect(look(input, [60])).toBe(0);
    expect(state(input.feeds[0]!)).toMatchObject({ moved: false, flowing: true });
    expect(look(input, [90])).toBe(0);
    // Gone: one quiet look keeps it, the second puts the placeholder on.
    expect(look(input, [90])).toBe(0);
    expect(look(input, [90])).toBe(-1);
    expect(state(input.feeds[0]!)).toMatchObject({ moved: false, flowing: false });
    // And the first packets take it away again.
    expect(look(input, [91])).toBe(0);
  });

  it('switches codec at the first look the new feed moves, without waiting for the old one to stop', () => {
    const input = { feeds: [networkFeed(), networkFeed()], shown: -1 };
    expect(look(input, [30, 0])).toBe(0);
    // The browser changes codec: VP8 stops, H.264 starts (for a moment both).
    expect(look(input, [45, 10])).toBe(0);
    expect(look(input, [45, 40])).toBe(1);
    expect(flowing(input.feeds[0]!)).toBe(true);
    // Back to VP8 while H.264 is in its quiet grace: the one that moves is drawn.
    expect(look(input, [60, 40])).toBe(0);
  });
});
