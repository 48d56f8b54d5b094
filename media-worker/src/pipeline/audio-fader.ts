import type { GstPad } from '../gst/gst.ts';
import { easeInOut, type AudioPadTarget } from './layout.ts';

/** How long a source's sound takes to come in or go out when its scene is shown or hidden. */
export const SCENE_FADE_MS = 1000;
const FADE_STEP_MS = 40;

interface Fade {
  pad: GstPad;
  target: AudioPadTarget;
  /** 0..1 share of the volume let through because of scene visibility. */
  level: number;
  from: number;
  to: number;
  startedAt: number;
}

/**
 * Audiomixer pad volumes, with the scene fade done from a 25 Hz timer on the JS thread: a handful
 * of property writes a second per source, nothing on GStreamer's per-buffer path.
 */
export class AudioFader {
  private readonly fades = new Map<string, Fade>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly fadeMs = SCENE_FADE_MS) {}

  /**
   * A new input's pad. `fadeIn` (a guest source, spec §4 "Guest tile": its audio starts at 0) starts
   * it silent and fades it to its volume when its scene is shown; others start at their level.
   */
  add(inputId: string, pad: GstPad, target: AudioPadTarget, options: { fadeIn?: boolean; now?: number } = {}): void {
    const level = target.audible && !options.fadeIn ? 1 : 0;
    this.fades.set(inputId, { pad, target, level, from: level, to: level, startedAt: 0 });
    this.write(this.fades.get(inputId)!);
    if (options.fadeIn) this.set(inputId, target, options.now);
  }

  remove(inputId: string): void {
    this.fades.delete(inputId);
  }

  set(inputId: string, target: AudioPadTarget, now = Date.now()): void {
    const fade = this.fades.get(inputId);
    if (!fade) return;
    fade.target = target;
    const to = target.audible ? 1 : 0;
    if (to !== fade.to) {
      fade.from = fade.level;
      fade.to = to;
      fade.startedAt = now;
      this.timer ??= setInterval(() => this.advance(), FADE_STEP_MS);
    }
    this.write(fade);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One fade step at `now`; run by the fader's own timer (tests pass their own clock). */
  advance(now = Date.now()): void {
    let running = false;
    for (const fade of this.fades.values()) {
      if (fade.level === fade.to) continue;
      const progress = (now - fade.startedAt) / this.fadeMs;
      fade.level = progress >= 1 ? fade.to : fade.from + (fade.to - fade.from) * easeInOut(progress);
      this.write(fade);
      if (fade.level !== fade.to) running = true;
    }
    if (!running) this.stop();
  }

  private write(fade: Fade): void {
    fade.pad.volume = fade.target.volume * fade.level;
    fade.pad.mute = fade.target.muted;
  }
}
