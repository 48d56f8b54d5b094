import { z } from 'zod';
import type { OutputProfile } from './render-plan.ts';

/**
 * How a session's encoder gives way when its media worker runs out of CPU (ARCHITECTURE "Fleet":
 * admission only refuses new work; a session already running steps its own encoder down before
 * frames drop). Step 0 is the profile as planned; each step after it is a faster x264 speed preset.
 * The encoded size never changes: every preset writes the same parameter sets (build/video.ts), so
 * a step keeps the stream's caps and the recording goes on in the same part (issue 35), and the
 * smaller sizes the ladder used to end with saved nothing measurable (issue 41, bench/pipeline-bench.ts
 * 'ladder' at 720p30: 0.45 and 0.40 cores at 960×540 and 854×480 against 0.37 at ultrafast 1280×720;
 * the scaling of each picture to the smaller canvas cost what x264 saved).
 */
export const encoderPresets = ['veryfast', 'superfast', 'ultrafast'] as const;
export type EncoderPreset = (typeof encoderPresets)[number];
export const encoderPresetSchema = z.enum(encoderPresets);

export const encoderSettingsSchema = z.object({
  /** 0 = as planned; `steps` - 1 = the cheapest. */
  step: z.number().int().nonnegative(),
  steps: z.number().int().positive(),
  preset: encoderPresetSchema,
  /** The encoded size: the profile's at every step. */
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type EncoderSettings = z.infer<typeof encoderSettingsSchema>;

/** Every step of a profile's ladder, from the planned encode to the cheapest. */
export function encoderLadder(profile: Pick<OutputProfile, 'width' | 'height'>): EncoderSettings[] {
  return encoderPresets.map((preset, step) => ({ step, steps: encoderPresets.length, preset, width: profile.width, height: profile.height }));
}

/** The settings at `step`, clamped to the ladder. */
export function encoderStep(profile: Pick<OutputProfile, 'width' | 'height'>, step: number): EncoderSettings {
  const ladder = encoderLadder(profile);
  return ladder[Math.min(Math.max(0, Math.trunc(step)), ladder.length - 1)]!;
}
