// A Kubernetes API double serving what a pod watch reads: the pods of one namespace, listed
// (PodList with its resourceVersion) and watched (newline-delimited watch events from a
// resourceVersion on, as the API server streams them), filtered by an equality label selector. The
// simulated fleet's workers are pods here; a killed worker's pod is deleted, and the watch of the
// api's death notice (runtime's PodDeathWatch, on @kubernetes/client-node) sees it as in a cluster.
// There is no cluster on these machines (ENVIRONMENT.md): this is the third-party service's double.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig, type V1Pod } from '@kubernetes/client-node';

interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: V1Pod;
  version: number;
}

export class KubernetesDouble {
  private readonly pods = new Map<string, V1Pod>();
  private readonly history: WatchEvent[] = [];
  private readonly watchers = new Set<{ selector: Record<string, string>; res: ServerResponse }>();
  private version = 1;
  private server: Server | undefined;
  url = '';

  constructor(readonly namespace = 'onair') {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A client configuration that points at this double, as a kubeconfig file would. */
  kubeConfig(): KubeConfig {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'double', server: this.url, skipTLSVerify: true }],
      users: [{ name: 'double', token: 'double' }],
      contexts: [{ name: 'double', cluster: 'double', user: 'double', namespace: this.namespace }],
      currentContext: 'double',
    });
    return kc;
  }

  /** A running pod of `name` with `labels`. */
  addPod(name: string, labels: Record<string, string>): void {
    const pod: V1Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: this.namespace, labels, uid: `uid-${name}`, resourceVersion: '' },
      status: { phase: 'Running' },
    };
    this.emit('ADDED', pod);
  }

  /** The pod is gone: its containers stopped and its object removed (what a watch sees of kill -9 and a deleted pod). */
  deletePod(name: string): void {
    const pod = this.pods.get(name);
    if (pod) this.emit('DELETED', pod);
  }

  async stop(): Promise<void> {
    for (const w of this.watchers) w.res.end();
    this.watchers.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server?.closeAllConnections();
  }

  private emit(type: WatchEvent['type'], pod: V1Pod): void {
    this.version += 1;
    const object: V1Pod = { ...pod, metadata: { ...pod.metadata, resourceVersion: String(this.version) } };
    if (type === 'DELETED') this.pods.delete(object.metadata!.name!);
    else this.pods.set(object.metadata!.name!, object);
    const event = { type, object, version: this.version };
    this.history.push(event);
    for (const w of this.watchers) if (matches(object, w.selector)) w.res.write(`${JSON.stringify({ type, object })}\n`);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.url);
    if (req.method !== 'GET' || url.pathname !== `/api/v1/namespaces/${this.namespace}/pods`) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ kind: 'Status', code: 404 }));
      return;
    }
    const selector = parseSelector(url.searchParams.get('labelSelector'));
    if (url.searchParams.get('watch') !== 'true') {
      const items = [...this.pods.values()].filter((p) => matches(p, selector));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: String(this.version) }, items }));
      return;
    }
    const from = Number(url.searchParams.get('resourceVersion') ?? '0');
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    // The API server answers a watch at once; the client waits for these headers before it reads events.
    res.flushHeaders();
    for (const e of this.history) if (e.version > from && matches(e.object, selector)) res.write(`${JSON.stringify({ type: e.type, object: e.object })}\n`);
    const watcher = { selector, res };
    this.watchers.add(watcher);
    req.on('close', () => this.watchers.delete(watcher));
  }
}

function parseSelector(raw: string | null): Record<string, string> {
  const selector: Record<string, string> = {};
  for (const part of (raw ?? '').split(',').filter(Boolean)) {
    const [key, value] = part.split('=');
    if (key) selector[key] = value ?? '';
  }
  return selector;
}

function matches(pod: V1Pod, selector: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => pod.metadata?.labels?.[k] === v);
}
