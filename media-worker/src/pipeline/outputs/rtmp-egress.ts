import { canonicalHost, hostPortKey } from '@onair/protocol';
import { EgressPolicy, EgressProxy, egressResolver, type Logger, type Resolver } from '@onair/runtime';
import { loadGio } from '../../gst/gst.ts';

/** What a destination output needs of the egress: permission to reach its server, and why it was refused. */
export interface OutputEgress {
  /** Null when connections can be made; otherwise why no output of this process may connect. */
  readonly unavailable: string | null;
  /** Lets this output's server be reached (on a private address too, when `allowPrivate`); call the result when the output is gone. */
  permit(url: string, allowPrivate: boolean): () => void;
  /** Why a connection to this URL's server was refused since `sinceMs`, if it was. */
  refusedSince(url: string, sinceMs: number): string | undefined;
}

/** The environment variables GIO's proxy support (libproxy) reads; any other proxy setting would bypass ours. */
const PROXY_ENV_OVERRIDES = ['no_proxy', 'NO_PROXY', 'all_proxy', 'ALL_PROXY', 'https_proxy', 'HTTPS_PROXY', 'HTTP_PROXY', 'ftp_proxy', 'FTP_PROXY'];
const PROBE_URI = 'rtmp://egress-probe.invalid:1935';

function hostPortOf(url: string): string | null {
  try {
    const u = new URL(url);
    const port = u.port !== '' ? Number(u.port) : u.protocol === 'rtmps:' ? 443 : 1935;
    return hostPortKey(canonicalHost(u.hostname), port);
  } catch {
    return null;
  }
}

/**
 * Every RTMP connection of a pipeline process goes through this egress proxy: GStreamer's rtmp2sink
 * connects with GIO, whose proxy support sends `CONNECT name:port` to us with the name as the
 * creator wrote it. The proxy resolves the name once, refuses loopback, private (unless this
 * output's server may be private) and metadata addresses in any spelling, and connects to the
 * address it checked; the RTMP tcUrl and the TLS server name still carry the name, so servers that
 * route on it and RTMPS certificates work as before. Nothing resolves the name a second time.
 */
export class RtmpEgress implements OutputEgress {
  private readonly permits = new Map<string, number>();
  private unavailableReason: string | null = null;

  private constructor(
    private readonly proxy: EgressProxy,
    /** The policy's own allowlist: a permit adds its server here while the output lives. */
    private readonly allowed: Set<string>,
    private readonly logger: Logger,
  ) {}

  /** Starts the proxy on loopback and points this process's GIO at it; call before any output connects. */
  static async start(logger: Logger, resolve: Resolver = egressResolver()): Promise<RtmpEgress> {
    const allowed = new Set<string>();
    const proxy = new EgressProxy(new EgressPolicy(allowed, resolve), { forwardHttp: false });
    const port = await proxy.listen();
    for (const name of PROXY_ENV_OVERRIDES) delete process.env[name];
    process.env.http_proxy = `http://127.0.0.1:${port}`;
    // libproxy reads http_proxy; GIO's GNOME resolver (picked first on a GNOME desktop) would not.
    process.env.GIO_USE_PROXY_RESOLVER = 'libproxy';
    const egress = new RtmpEgress(proxy, allowed, logger);
    egress.verify(port);
    return egress;
  }

  get unavailable(): string | null {
    return this.unavailableReason;
  }

  /** Fails closed: if GIO would not use the proxy, connections would go out unchecked, so none are made. */
  private verify(port: number): void {
    try {
      const proxies = loadGio().ProxyResolver.getDefault().lookup(PROBE_URI, null);
      if (!proxies.includes(`http://127.0.0.1:${port}`)) this.unavailableReason = `GStreamer would not connect through the egress proxy (it would use ${proxies.join(', ') || 'nothing'})`;
    } catch (err) {
      this.unavailableReason = `GStreamer's proxy support could not be checked: ${(err as Error).message}`;
    }
    if (this.unavailableReason) this.logger.error({ reason: this.unavailableReason }, 'RTMP egress unavailable: install glib-networking with libproxy; no output will connect');
  }

  permit(url: string, allowPrivate: boolean): () => void {
    const key = hostPortOf(url);
    if (!allowPrivate || key === null) return () => undefined;
    this.permits.set(key, (this.permits.get(key) ?? 0) + 1);
    this.allowed.add(key);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.permits.get(key) ?? 1) - 1;
      if (left > 0) {
        this.permits.set(key, left);
        return;
      }
      this.permits.delete(key);
      this.allowed.delete(key);
    };
  }

  refusedSince(url: string, sinceMs: number): string | undefined {
    const key = hostPortOf(url);
    return this.proxy
      .refusalsSince(sinceMs)
      .reverse()
      .find((r) => hostPortKey(canonicalHost(r.host), r.port) === key)?.reason;
  }

  async close(): Promise<void> {
    await this.proxy.close();
  }
}
