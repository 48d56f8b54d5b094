import { mkdir, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { CONSOLE_APPLICATION, INGEST_APPLICATION } from '@onair/protocol';
import { TetheredProcess } from '@onair/runtime';
import { freePort, waitFor } from './ports.ts';

/** Where Debian's libnginx-mod-rtmp puts the RTMP module. */
const RTMP_MODULE = '/usr/lib/nginx/modules/ngx_rtmp_module.so';

export interface IngestServerOptions {
  /** Private folder for the config, logs, pid and temp files of this server. */
  dir: string;
  /** RTMP port; a free one when omitted. */
  port?: number;
  /** Address it listens on (127.0.0.1 by default; 0.0.0.0 lets encoders and consoles on the network reach it). */
  host?: string;
  /** The api's callback base, `http://127.0.0.1:8080/api/internal/ingest/<secret>`. */
  callbackUrl: string;
  /** A publisher that sends no data for this long is dropped (the byte watchdog of a stalled encoder). Default 10 s. */
  idlePublisherSeconds?: number;
  /** How often the api confirms a running publish (and cuts off a revoked key). Default 10 s. */
  updateSeconds?: number;
  log?: (line: string) => void;
}

export interface RunningIngestServer {
  port: number;
  /** `rtmp://127.0.0.1:<port>`: where media workers pull accepted feeds. */
  pullUrl: string;
  readonly pid: number | undefined;
  stop(): Promise<void>;
}

/**
 * The nginx-rtmp configuration of the ingest, the same for the one-machine stack and the k8s
 * Deployment (k8s/ingest.yaml carries its copy): two applications, `ingest` for encoders with the
 * project's key and `app` for consoles with their Twitch key (Twitch's own path shape). Every publish
 * is asked of the api first (on_publish, which also renames the stream so the key goes no further);
 * playing is for the media workers only. The error log stays at `error`: at `info` nginx-rtmp writes
 * every publish's stream name, which is the key.
 */
export function ingestNginxConfig(options: {
  dir: string;
  listen: string;
  callbackUrl: string;
  idlePublisherSeconds: number;
  updateSeconds: number;
  allowPlay: string[];
}): string {
  const app = (name: string) => `    application ${name} {
      live on;
      record off;
      idle_streams off;
      drop_idle_publisher ${options.idlePublisherSeconds}s;
      on_publish ${options.callbackUrl}/publish;
      on_update ${options.callbackUrl}/update;
      on_publish_done ${options.callbackUrl}/done;
${options.allowPlay.map((a) => `      allow play ${a};`).join('\n')}
      deny play all;
    }`;
  return `load_module ${RTMP_MODULE};
master_process off;
daemon off;
pid ${join(options.dir, 'nginx.pid')};
error_log ${join(options.dir, 'error.log')} error;
events { worker_connections 512; }
rtmp {
  access_log off;
  server {
    listen ${options.listen};
    chunk_size 4096;
    notify_method get;
    notify_update_timeout ${options.updateSeconds}s;
${app(INGEST_APPLICATION)}
${app(CONSOLE_APPLICATION)}
  }
}
`;
}

async function portAccepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts the RTMP ingest (nginx-rtmp) of the one-machine stack and of tests. */
export async function startIngestServer(options: IngestServerOptions): Promise<RunningIngestServer> {
  const { dir } = options;
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await freePort());
  const log = options.log ?? (() => {});
  await mkdir(dir, { recursive: true });
  const confPath = join(dir, 'nginx.conf');
  await writeFile(
    confPath,
    ingestNginxConfig({
      dir,
      listen: `${host}:${port}`,
      callbackUrl: options.callbackUrl,
      idlePublisherSeconds: options.idlePublisherSeconds ?? 10,
      updateSeconds: options.updateSeconds ?? 10,
      allowPlay: ['127.0.0.1'],
    }),
  );
  // Tethered: a stack or a test killed with -9 leaves no ingest holding its port.
  const child = new TetheredProcess('nginx', ['-p', dir, '-c', confPath, '-e', join(dir, 'error.log')], { onLine: log });
  const probeHost = host === '0.0.0.0' ? '127.0.0.1' : host;
  await waitFor(
    `the RTMP ingest on ${host}:${port}`,
    async () => {
      if (!child.running) throw new Error(`nginx exited (${child.stderrTail.trim() || 'no output'}); see ${join(dir, 'error.log')}`);
      return (await portAccepts(probeHost, port)) ? true : undefined;
    },
    10_000,
    50,
  );
  return {
    port,
    pullUrl: `rtmp://127.0.0.1:${port}`,
    get pid() {
      return child.pid;
    },
    stop: async () => {
      await child.stop({ graceMs: 5000 });
    },
  };
}
