import { z } from 'zod';
import type { OutputProfile } from './render-plan.ts';

/**
 * How a session's encoder gives way when its media worker runs out of CPU (ARCHITECTURE "Fleet":
 * admission only refuses new work; a session already running steps its own encoder down before
 * frames drop). Step 0 is the profile as planned; each step after it is cheaper: first x264's
 * speed preset, then the encoded size, one rung of the ladder at a time. The compositor keeps the
 * profile's size, so layouts, the preview and every source stay as they are; only what is encoded
 * changes, and the bitrate stays.
 */
export const encoderPresets = ['veryfast', 'superfast', 'ultrafast'] as const;
export type EncoderPreset = (typeof encoderPresets)[number];
export const encoderPresetSchema = z.enum(encoderPresets);

/** Heights an encode may step down to (the profile's own first), 16:9 and 9:16 alike. */
const LADDER_HEIGHTS = [1080, 720, 540, 480, 360];

export const encoderSettingsSchema = z.object({
  /** 0 = as planned; `steps` - 1 = the cheapest. */
  step: z.number().int().nonnegative(),
  steps: z.number().int().positive(),
  preset: encoderPresetSchema,
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type EncoderSettings = z.infer<typeof encoderSettingsSchema>;

const even = (n: number): number => Math.max(2, Math.round(n / 2) * 2);

/** Every step of a profile's ladder, from the planned encode to the cheapest. */
export function encoderLadder(profile: Pick<OutputProfile, 'width' | 'height'>): EncoderSettings[] {
  const portrait = profile.height > profile.width;
  const short = portrait ? profile.width : profile.height;
  const sizes: { width: number; height: number }[] = [{ width: profile.width, height: profile.height }];
  // At most two sizes below the planned one: past that the picture is no longer what was sold.
  for (const rung of LADDER_HEIGHTS.filter((h) => h < short).slice(0, 2)) {
    const long = even((rung * Math.max(profile.width, profile.height)) / short);
    sizes.push(portrait ? { width: rung, height: long } : { width: long, height: rung });
  }
  const steps: Omit<EncoderSettings, 'step' | 'steps'>[] = [
    ...encoderPresets.map((preset) => ({ preset, ...sizes[0]! })),
    ...sizes.slice(1).map((size) => ({ preset: 'ultrafast' as const, ...size })),
  ];
  return steps.map((s, step) => ({ ...s, step, steps: steps.length }));
}

/** The settings at `step`, clamped to the ladder. */
export function encoderStep(profile: Pick<OutputProfile, 'width' | 'height'>, step: number): EncoderSettings {
  const ladder = encoderLadder(profile);
  return ladder[Math.min(Math.max(0, Math.trunc(step)), ladder.length - 1)]!;
}
