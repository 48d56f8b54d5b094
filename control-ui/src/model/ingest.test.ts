import { describe, expect, it } from 'vitest';
import type { IngestFeed, IngestStatus } from '@onair/protocol';
import { ingestStatusLine } from './ingest.ts';

const at = '2026-11-25T10:00:00.000Z';
const receiving: IngestStatus = { state: 'receiving', via: 'encoder', since: at, graceEndsAt: null };
const feed: IngestFeed = { state: 'flowing', videoCodec: 'h264', audioCodec: 'aac', width: 1280, height: 720, fps: 29.9, bitrateKbps: 2450, at };

describe('ingestStatusLine', () => {
  it('shows codec, size, frame rate and bitrate while receiving', () => {
    expect(ingestStatusLine(receiving, feed, true, 0)).toEqual({
      light: 'receiving',
      text: 'Receiving from your encoder: H.264 · AAC · 1280×720 · 30 fps · 2.5 Mbps',
    });
  });

  it('names an unsupported codec and a stalled feed as problems', () => {
    expect(ingestStatusLine(receiving, { ...feed, state: 'unsupported', videoCodec: 'flv1' }, true, 0)).toEqual({
      light: 'problem',
      text: "The feed's video is Sorenson H.263, which OnAir cannot show. Set your encoder to H.264.",
    });
    expect(ingestStatusLine(receiving, { ...feed, state: 'stalled' }, true, 0).light).toBe('problem');
  });

  it('counts down the grace period of a dropped feed with Auto Live on', () => {
    const dropped: IngestStatus = { state: 'dropped', via: 'console', since: at, graceEndsAt: '2026-11-25T10:01:00.000Z' };
    expect(ingestStatusLine(dropped, null, true, Date.parse('2026-11-25T10:00:15.000Z')).text).toBe(
      "Feed dropped: the game source shows 'Game Source Offline'. The broadcast ends in 45 s unless it returns.",
    );
    expect(ingestStatusLine(dropped, null, false, Date.parse(at)).text).toBe("Feed dropped: the game source shows 'Game Source Offline'.");
  });

  it('waits', () => {
    expect(ingestStatusLine({ state: 'waiting', via: null, since: null, graceEndsAt: null }, null, true, 0)).toEqual({
      light: 'waiting',
      text: 'Waiting for a feed: the broadcast starts when it arrives.',
    });
  });
});
