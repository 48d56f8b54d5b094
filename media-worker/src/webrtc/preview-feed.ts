import { createSocket, type Socket } from 'node:dgram';
import type { MediaStreamTrack } from 'werift';

/**
 * The program preview of one session: the pipeline's VP8 RTP arrives on a loopback port and is
 * written to every participant's preview track (werift rewrites SSRC, sequence and payload type
 * per peer). One socket per session, whatever the number of participants.
 */
export class PreviewFeed {
  private readonly tracks = new Set<MediaStreamTrack>();
  private readonly socket: Socket = createSocket('udp4');
  private packets = 0;

  constructor(readonly port: number) {}

  async open(): Promise<void> {
    this.socket.on('message', (data: Buffer) => {
      this.packets += 1;
      for (const track of this.tracks) track.writeRtp(data);
    });
    await new Promise<void>((resolve, reject) => {
      this.socket.once('error', reject);
      this.socket.bind(this.port, '127.0.0.1', () => {
        this.socket.off('error', reject);
        resolve();
      });
    });
  }

  get packetsReceived(): number {
    return this.packets;
  }

  add(track: MediaStreamTrack): void {
    this.tracks.add(track);
  }

  remove(track: MediaStreamTrack): void {
    this.tracks.delete(track);
  }

  close(): void {
    this.tracks.clear();
    this.socket.close();
  }
}
