import { z } from 'zod';
import type { OutputProfile } from './render-plan.ts';

/**
 * How a session's encoder gives way when its media worker runs out of CPU (ARCHITECTURE "Fleet":
 * admission only refuses new work; a session already running steps its own encoder down before
 * frames drop). Step 0 is the profile as planned; a step after it is a faster x264 speed preset.
 * The encoded size never changes: every preset writes the same parameter sets (build/video.ts), so
 * a step keeps the stream's caps and the recording goes on in the same part (issue 35), and the
 * smaller sizes the ladder used to end with saved nothing measurable (issue 41: the scaling of each
 * picture to the smaller canvas cost what x264 saved).
 *
 * Every step must save at least a tenth of the session's cores against the one before (issue 41
 * item 4), measured by bench/pipeline-bench.ts 'ladder' (BENCH_LADDER=720p30,1080p30) on an idle
 * machine, two runs on 2026-11-28, cores of the whole session process:
 *   720p30:  veryfast 0.40 / 0.42, superfast 0.37 / 0.37 (×0.94 / ×0.88), ultrafast 0.35 / 0.33 (×0.93 / ×0.90 of superfast)
 *   1080p30: veryfast 0.68 / 0.68, superfast 0.64 / 0.66 (×0.94 / ×0.97), ultrafast 0.67 / 0.67 (×1.04 / ×1.02 of superfast)
 * So up to 720p's pixel count the ladder is veryfast → ultrafast in one step (×0.88 / ×0.79), and
 * at 1080p it has no step at all: x264 there is a third of the session and its faster presets save
 * 3–6 % of it, which would never bring a starved worker back; the governor steps other sessions.
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

/** Pixel counts from this one up keep their planned preset (see above: no faster preset saves a tenth there). */
const NO_STEP_PIXELS = 1920 * 1080;

/** Every step of a profile's ladder, from the planned encode to the cheapest. */
export function encoderLadder(profile: Pick<OutputProfile, 'width' | 'height'>): EncoderSettings[] {
  const presets: readonly EncoderPreset[] = profile.width * profile.height >= NO_STEP_PIXELS ? ['veryfast'] : ['veryfast', 'ultrafast'];
  return presets.map((preset, step) => ({ step, steps: presets.length, preset, width: profile.width, height: profile.height }));
}

/** The settings at `step`, clamped to the ladder. */
export function encoderStep(profile: Pick<OutputProfile, 'width' | 'height'>, step: number): EncoderSettings {
  const ladder = encoderLadder(profile);
  return ladder[Math.min(Math.max(0, Math.trunc(step)), ladder.length - 1)]!;
}
