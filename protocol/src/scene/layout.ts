/**
 * Layout constants of spec §9. Scene coordinates are pixels of a fixed 1280x720 canvas (the
 * spec's default canvas resolution): every placement constant of the spec is given on that canvas,
 * and the pipeline scales the composed canvas to the output resolution, so changing 720p to 1080p
 * never moves a layer.
 */
export const CANVAS = { width: 1280, height: 720 } as const;

export interface LayerBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where a newly added source lands unless its kind says otherwise. */
export const DEFAULT_POSITION = { x: 40, y: 40 } as const;

/** Guest and game sources start at 640x360. */
export const GUEST_SOURCE_SIZE = { width: 640, height: 360 } as const;
export const GAME_SOURCE_SIZE = { width: 640, height: 360 } as const;

/** A browser source starts at 852x480, offset 200 and 36 from the canvas origin; it may not be smaller. */
export const BROWSER_SOURCE_PLACEMENT: LayerBox = { x: 200, y: 36, width: 852, height: 480 };
export const BROWSER_SOURCE_MIN_SIZE = { width: 852, height: 480 } as const;

/** The OnAir logo: 237x62 at 30,30. */
export const WATERMARK_PLACEMENT: LayerBox = { x: 30, y: 30, width: 237, height: 62 };
/** Height of the logo artwork the watermark is drawn from (spec §9 "watermark height constant 150"). */
export const WATERMARK_ARTWORK_HEIGHT = 150;

/**
 * The spec gives no size for camera and screen-share sources; OnAir uses the guest tile size so
 * every captured video source starts at the same half-canvas size.
 */
export const CAPTURE_SOURCE_SIZE = { width: 640, height: 360 } as const;

/** Upper bound for coordinates and sizes: far outside any canvas, small enough to stay an int4. */
export const MAX_COORDINATE = 100_000;
