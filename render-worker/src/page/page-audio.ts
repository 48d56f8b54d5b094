import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { TetheredProcess } from '@onair/runtime';

export const PAGE_SINK = 'page';

/**
 * A private PulseAudio server per page with one null sink: Chromium plays into the sink
 * (PULSE_SERVER + PULSE_SINK), the capture reads its monitor. One server per page keeps pages from
 * hearing each other and dies with the page. Runs as root in user mode (it warns, and works).
 */
export class PageAudio {
  private constructor(
    readonly process: TetheredProcess,
    /** `unix:/…/pulse.sock`, the PULSE_SERVER value. */
    readonly server: string,
  ) {}

  static async start(dir: string, timeoutMs = 10_000): Promise<PageAudio> {
    const socket = join(dir, 'pulse.sock');
    await mkdir(join(dir, 'tmp'), { recursive: true });
    const proc = new TetheredProcess(
      'pulseaudio',
      [
        '--daemonize=no',
        '--exit-idle-time=-1',
        '-n', // no default.pa: only what we load
        '--use-pid-file=no',
        '--disable-shm=yes',
        '--log-target=stderr',
        `--load=module-native-protocol-unix socket=${socket} auth-anonymous=1`,
        `--load=module-null-sink sink_name=${PAGE_SINK} rate=48000 channels=2`,
      ],
      { env: privateEnv(dir) },
    );
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!proc.running) throw new Error(`pulseaudio exited at start: ${proc.stderrTail}`);
      try {
        await access(socket);
        break;
      } catch {
        if (Date.now() > deadline) {
          await proc.stop();
          throw new Error(`pulseaudio did not start within ${timeoutMs} ms: ${proc.stderrTail}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    return new PageAudio(proc, `unix:${socket}`);
  }

  async stop(): Promise<void> {
    await this.process.stop();
  }
}

/**
 * The environment of a page's helper programs: a private HOME, runtime and temp dirs inside the
 * page's folder (so whatever Chromium and PulseAudio leave in their temp dir goes with the page),
 * nothing of ours (no secrets).
 */
export function privateEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: join(dir, 'home'),
    XDG_RUNTIME_DIR: join(dir, 'run'),
    XDG_CONFIG_HOME: join(dir, 'home', '.config'),
    XDG_CACHE_HOME: join(dir, 'home', '.cache'),
    TMPDIR: join(dir, 'tmp'),
    ...extra,
  };
}
