import type { OutputProfile, PlanInput } from '@onair/protocol';
import { buildImage } from './image.ts';
import { buildRtp } from './rtp.ts';
import type { SourceBins } from './source.ts';
import { buildTestPattern } from './test-pattern.ts';
import { buildVideoFile } from './video-file.ts';

export { MIXER_AUDIO_CAPS, elementName, type SourceBins } from './source.ts';
export { FilePlayer } from './file-player.ts';

/** The factory over the closed set of input kinds: a new kind fails to compile until it is handled here. */
export function buildSource(input: PlanInput, profile: OutputProfile, name: string): SourceBins {
  switch (input.kind) {
    case 'test-pattern':
      return buildTestPattern(input, profile, name);
    case 'image':
      return buildImage(input, profile, name);
    case 'rtp':
      return buildRtp(input, profile, name);
    case 'video-file':
      return buildVideoFile(input, profile, name);
  }
}
