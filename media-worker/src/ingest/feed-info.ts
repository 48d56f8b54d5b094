/** What ffmpeg says of an input's streams (its `Stream #0:n: …` lines under `Input #0`). */
export interface FeedInfo {
  videoCodec: string | null;
  audioCodec: string | null;
  width: number | null;
  height: number | null;
  fps: number | null;
}

export const EMPTY_FEED_INFO: FeedInfo = { videoCodec: null, audioCodec: null, width: null, height: null, fps: null };

/**
 * Reads ffmpeg's log line by line and keeps what it says of the input's streams. Only the input
 * section counts: the output section repeats `Stream #0:0: Video: …` lines for what is written.
 */
export class FeedInfoReader {
  private section: 'none' | 'input' | 'output' = 'none';
  private info: FeedInfo = { ...EMPTY_FEED_INFO };
  private sawVideo = false;

  get current(): FeedInfo {
    return this.info;
  }

  /** True once the input's video stream was described. */
  get videoKnown(): boolean {
    return this.sawVideo;
  }

  /** Feeds one line; returns true when it described an input stream. */
  line(text: string): boolean {
    if (/^Input #\d+/.test(text)) this.section = 'input';
    else if (/^Output #\d+/.test(text)) this.section = 'output';
    if (this.section !== 'input') return false;
    const video = /Stream #\d+:\d+.*?: Video: ([a-z0-9_]+)/i.exec(text);
    if (video) {
      const size = /, (\d{2,5})x(\d{2,5})[ ,]/.exec(text);
      const fps = /, ([\d.]+) fps/.exec(text) ?? /, ([\d.]+) tbr/.exec(text);
      this.info = {
        ...this.info,
        videoCodec: video[1]!.toLowerCase(),
        width: size ? Number(size[1]) : null,
        height: size ? Number(size[2]) : null,
        fps: fps ? Number(fps[1]) : null,
      };
      this.sawVideo = true;
      return true;
    }
    const audio = /Stream #\d+:\d+.*?: Audio: ([a-z0-9_]+)/i.exec(text);
    if (audio) {
      this.info = { ...this.info, audioCodec: audio[1]!.toLowerCase() };
      return true;
    }
    return false;
  }
}
