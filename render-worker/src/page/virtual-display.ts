import { TetheredProcess } from '@onair/runtime';

/**
 * One Xvfb screen of exactly the page's size. It listens on an abstract socket only (no TCP, no
 * /tmp/.X11-unix file, no lock file), so nothing is left on disk and displays of other pages and
 * other programs on the machine do not collide: Xvfb picks a free display number itself and tells
 * us on fd 3.
 */
export class VirtualDisplay {
  private constructor(
    readonly process: TetheredProcess,
    /** ":N", the DISPLAY value. */
    readonly display: string,
  ) {}

  static async start(width: number, height: number, timeoutMs = 10_000): Promise<VirtualDisplay> {
    const proc = new TetheredProcess(
      'Xvfb',
      ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-nolisten', 'unix', '-nolock', '-nocursor', '-noreset'],
      { extraPipes: 1 },
    );
    const fd3 = proc.pipe(3);
    const display = await new Promise<string>((resolve, reject) => {
      let buf = '';
      const timer = setTimeout(() => reject(new Error(`Xvfb did not start within ${timeoutMs} ms: ${proc.stderrTail}`)), timeoutMs);
      fd3?.on('data', (d: Buffer) => {
        buf += d.toString();
        if (buf.includes('\n')) {
          clearTimeout(timer);
          resolve(`:${buf.trim()}`);
        }
      });
      void proc.exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`Xvfb exited at start: ${proc.stderrTail}`));
      });
    }).catch(async (err: unknown) => {
      await proc.stop();
      throw err;
    });
    return new VirtualDisplay(proc, display);
  }

  async stop(): Promise<void> {
    await this.process.stop();
  }
}
