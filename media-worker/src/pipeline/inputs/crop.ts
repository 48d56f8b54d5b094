export interface Crop {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** The fewest pixels a crop leaves of a frame on each axis. */
const MIN_LEFT = 16;

/**
 * A layer's crop (pixels of the source's frames) inside a frame of this size: each axis keeps at
 * least MIN_LEFT pixels (or the whole frame, if smaller), the two edges of an axis giving way in
 * proportion; values are even, as 4:2:0 frames are cut on even pixels.
 */
export function clampCrop(crop: Crop, frame: { width: number; height: number }): Crop {
  const axis = (a: number, b: number, size: number): [number, number] => {
    const room = Math.max(0, size - Math.min(size, MIN_LEFT));
    const total = a + b;
    const k = total > room ? room / total : 1;
    const even = (v: number) => Math.floor((v * k) / 2) * 2;
    return [even(a), even(b)];
  };
  const [left, right] = axis(Math.max(0, crop.left), Math.max(0, crop.right), frame.width);
  const [top, bottom] = axis(Math.max(0, crop.top), Math.max(0, crop.bottom), frame.height);
  return { top, right, bottom, left };
}

/**
 * What videocrop cuts from a frame of `frame` size for a layer drawn in a `box`: the layer's own
 * crop (kept inside the frame), then for `cover` what is left cut further, centred, to the box's
 * aspect, so it fills the box undistorted. Even values. The cover cut never takes an axis past
 * half its size: videocrop refuses frames smaller than its cut and that stops the source for good,
 * and a sender may step down before the cut is recomputed for its new size (WebRTC senders step by
 * 3/4 or 2/3; Chromium's and Safari's cameras send landscape frames, so a cut that big, an upright
 * 9:16 picture in a 16:9 tile, is rare: that picture is then squeezed a little instead).
 */
export function frameCrop(frame: { width: number; height: number }, crop: Crop, box: { width: number; height: number }, fit: 'fill' | 'cover'): Crop {
  const own = clampCrop(crop, frame);
  if (fit !== 'cover' || box.width <= 0 || box.height <= 0) return own;
  const width = frame.width - own.left - own.right;
  const height = frame.height - own.top - own.bottom;
  const aspect = box.width / box.height;
  const even = (v: number) => Math.max(0, Math.floor(v / 2) * 2);
  if (width / height > aspect) {
    const cut = even(Math.min(width - height * aspect, frame.width / 2 - 2 - own.left - own.right));
    const left = even(cut / 2);
    return { ...own, left: own.left + left, right: own.right + cut - left };
  }
  const cut = even(Math.min(height - width / aspect, frame.height / 2 - 2 - own.top - own.bottom));
  const top = even(cut / 2);
  return { ...own, top: own.top + top, bottom: own.bottom + cut - top };
}
