import { describe, expect, it } from 'vitest';
import { encoderLadder, encoderStep } from './encoder-ladder.ts';
import { outputProfiles } from './render-plan.ts';

const names = (profile: { width: number; height: number }) => encoderLadder(profile).map((s) => `${s.preset}@${s.width}x${s.height}`);

describe('encoder ladder', () => {
  it('steps from veryfast to ultrafast up to 720p, keeps 1080p at its preset, and keeps the encoded size', () => {
    expect(names(outputProfiles['1080p30'])).toEqual(['veryfast@1920x1080']);
    expect(names(outputProfiles['720p30'])).toEqual(['veryfast@1280x720', 'ultrafast@1280x720']);
    expect(names(outputProfiles['480p30'])).toEqual(['veryfast@854x480', 'ultrafast@854x480']);
    expect(names({ width: 720, height: 1280 })).toEqual(['veryfast@720x1280', 'ultrafast@720x1280']);
  });

  it('numbers every step and clamps a step outside the ladder', () => {
    const ladder = encoderLadder(outputProfiles['720p30']);
    expect(ladder.map((s) => [s.step, s.steps])).toEqual([0, 1].map((i) => [i, 2]));
    expect(encoderStep(outputProfiles['720p30'], 9)).toEqual(ladder[1]);
    expect(encoderStep(outputProfiles['720p30'], -1)).toEqual(ladder[0]);
    expect(encoderStep(outputProfiles['1080p30'], 1)).toEqual(encoderLadder(outputProfiles['1080p30'])[0]);
  });
});
