import { mkdir, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { TetheredProcess } from '@onair/runtime';
import { freePort, waitFor } from './ports.ts';
import { tcpNoDelayPreload } from './tcp-nodelay.ts';

/** Where Debian's libnginx-mod-rtmp puts the RTMP module. */
const RTMP_MODULE = '/usr/lib/nginx/modules/ngx_rtmp_module.so';

export interface RtmpServerOptions {
  /** Private folder for the config, logs, pid and temp files of this server. */
  dir: string;
  /** RTMP port on 127.0.0.1; a free one when omitted. Kept across restarts. */
  port?: number;
  /** RTMP application name (`rtmp://127.0.0.1:port/<application>/<key>`). */
  application?: string;
  /**
   * Stream keys allowed to publish. When set, every other key is refused the way platforms refuse
   * a bad key (the publish is rejected after the RTMP handshake); `[]` refuses every publish.
   * When omitted, any key may publish.
   */
  acceptKeys?: string[];
  /**
   * Host names a publish's tcUrl may name. When set, a publish whose tcUrl carries another host is
   * refused, as servers that route on the tcUrl host (virtual hosts) do.
   */
  acceptTcUrlHosts?: string[];
  /**
   * Where on_publish asks about each publish instead (an HTTP GET with nginx-rtmp's arguments and
   * the publish address's query; a 2xx accepts): the one-machine stack's publish gate. Replaces
   * `acceptKeys` and `acceptTcUrlHosts`.
   */
  onPublishUrl?: string;
  /**
   * Also write every stream of the application as HLS (short fragments, old ones removed) and serve
   * it on loopback at `hlsUrl`: the api proxies it to the studio's Watch player.
   */
  hls?: boolean;
  log?: (line: string) => void;
}

export interface RunningRtmpServer {
  port: number;
  application: string;
  /** Publish/play URL of a stream key on this server. */
  url(key: string): string;
  /**
   * With `hls`, where the HLS files are served on loopback: `<hlsUrl>/<stream name>/index.m3u8` and
   * its segments `<n>.ts` next to it. Undefined without `hls`.
   */
  hlsUrl: string | undefined;
  /** Whether the nginx process is running. */
  readonly running: boolean;
  /** Process id of nginx (for tests that freeze it with SIGSTOP to play a silent stall). */
  readonly pid: number | undefined;
  /** Stops nginx (SIGKILL when `abrupt`, like a crash; otherwise a clean SIGTERM). */
  stop(options?: { abrupt?: boolean }): Promise<void>;
  /** Starts it again on the same port with the same configuration. */
  restart(): Promise<void>;
}

function nginxConfig(
  dir: string,
  port: number,
  httpPort: number,
  application: string,
  acceptKeys: string[] | undefined,
  acceptTcUrlHosts: string[] | undefined,
  onPublishUrl: string | undefined,
  hls: boolean,
): string {
  // on_publish is an HTTP call back to this same nginx: the `http` block answers 2xx for an accepted
  // key and 403 for any other, which nginx-rtmp turns into a rejected publish.
  const hosts = (acceptTcUrlHosts ?? []).map((h) => h.replace(/[^A-Za-z0-9.-]/g, '').replace(/\./g, '\\.'));
  // nginx-rtmp sends the tcUrl percent-encoded in the callback's query.
  const hostCheck = acceptTcUrlHosts
    ? `        if ($arg_tcurl !~* "^rtmps?(://|%3A%2F%2F)(${hosts.join('|') || '-'})((:|%3A)[0-9]+)?(/|%2F)") { return 403; }\n`
    : '';
  const keyCheck =
    hostCheck +
    (acceptKeys
      ? [...acceptKeys.map((k) => `        if ($arg_name = "${k.replace(/[^A-Za-z0-9_-]/g, '')}") { return 204; }`), '        return 403;'].join('\n')
      : '        return 204;');
  return `load_module ${RTMP_MODULE};
master_process off;
daemon off;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} info;
events { worker_connections 256; }
rtmp {
  server {
    listen 127.0.0.1:${port};
    chunk_size 4096;
    application ${application} {
      live on;
      record off;
      notify_method get;
      on_publish ${onPublishUrl ?? `http://127.0.0.1:${httpPort}/on_publish`};
      allow play 127.0.0.1;
      deny play all;
${hls ? hlsApplication(dir) : ''}    }
  }
}
http {
  access_log off;
  client_body_temp_path ${join(dir, 'tmp-body')};
  proxy_temp_path ${join(dir, 'tmp-proxy')};
  fastcgi_temp_path ${join(dir, 'tmp-fastcgi')};
  uwsgi_temp_path ${join(dir, 'tmp-uwsgi')};
  scgi_temp_path ${join(dir, 'tmp-scgi')};
  server {
    listen 127.0.0.1:${httpPort};
    location /on_publish {
${keyCheck}
    }
${hls ? hlsLocation(dir) : ''}  }
}
`;
}

/**
 * HLS of every stream, one folder per stream name (`hls_nested`). A fragment ends at the first
 * keyframe after `hls_fragment`, so the publisher's keyframe interval sets its length (2 s from the
 * media worker). nginx-rtmp keeps `hls_playlist_length / hls_fragment` fragments in the playlist
 * (4: 8 s of a 2 s-keyframe stream), enough for a player to start two fragments behind the edge;
 * fragments that left it are deleted (`hls_cleanup`), so a stream holds a few MB at most.
 */
export const HLS_FRAGMENT_SECONDS = 1;
export const HLS_PLAYLIST_SECONDS = 4;

function hlsApplication(dir: string): string {
  return `      hls on;
      hls_path ${join(dir, 'hls')};
      hls_nested on;
      hls_fragment ${HLS_FRAGMENT_SECONDS}s;
      hls_playlist_length ${HLS_PLAYLIST_SECONDS}s;
      hls_cleanup on;
`;
}

/** The HLS folder over HTTP on loopback, never cached (the playlist changes with every fragment). */
function hlsLocation(dir: string): string {
  return `    location /hls/ {
      alias ${join(dir, 'hls')}/;
      types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; }
      default_type application/octet-stream;
      add_header Cache-Control no-cache;
    }
`;
}

async function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A private nginx with the Debian RTMP module, on loopback, with its own prefix and config under
 * `dir`: the local destination of the one-machine stack and the RTMP server of the tests. It can be
 * stopped and restarted on the same port (to play a destination going away and coming back), and
 * set to refuse publishing (to play a bad stream key).
 */
export async function startRtmpServer(options: RtmpServerOptions): Promise<RunningRtmpServer> {
  const { dir } = options;
  const application = options.application ?? 'live';
  const port = options.port ?? (await freePort());
  const httpPort = await freePort();
  const log = options.log ?? (() => {});
  await mkdir(dir, { recursive: true });
  const confPath = join(dir, 'nginx.conf');
  await writeFile(
    confPath,
    nginxConfig(dir, port, httpPort, application, options.acceptKeys, options.acceptTcUrlHosts, options.onPublishUrl, options.hls ?? false),
  );

  let child: TetheredProcess | undefined;
  // Players get their frames as they come (native/tcp-nodelay.c); without it nginx still works,
  // with up to 40 ms more delay to players on loopback.
  const env = { ...process.env };
  try {
    env.LD_PRELOAD = [await tcpNoDelayPreload(), process.env.LD_PRELOAD].filter(Boolean).join(':');
  } catch (err) {
    log(`nginx-rtmp starts without TCP_NODELAY for players: ${err instanceof Error ? err.message : String(err)}`);
  }

  const launch = async (): Promise<void> => {
    // Tethered: a test or a stack killed with -9 leaves no nginx holding its port.
    const proc = new TetheredProcess('nginx', ['-p', dir, '-c', confPath, '-e', join(dir, 'error.log')], { env, onLine: log });
    child = proc;
    await waitFor(
      `nginx-rtmp on 127.0.0.1:${port}`,
      async () => {
        if (!proc.running) throw new Error(`nginx exited (${proc.stderrTail.trim() || 'no output'}); see ${join(dir, 'error.log')}`);
        return (await portAccepts(port)) && (await portAccepts(httpPort)) ? true : undefined;
      },
      10_000,
      50,
    );
  };

  const stop = async (stopOptions: { abrupt?: boolean } = {}): Promise<void> => {
    await child?.stop({ graceMs: 5000, signal: stopOptions.abrupt ? 'SIGKILL' : 'SIGTERM' });
  };

  await launch();
  return {
    port,
    application,
    url: (key) => `rtmp://127.0.0.1:${port}/${application}/${key}`,
    hlsUrl: options.hls ? `http://127.0.0.1:${httpPort}/hls` : undefined,
    get running() {
      return child?.running ?? false;
    },
    get pid() {
      return child?.pid;
    },
    stop,
    restart: async () => {
      await stop();
      await launch();
    },
  };
}
