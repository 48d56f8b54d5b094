// A Kubernetes API server double for the scaler tests: a real HTTP server on loopback that speaks
// the API's paths, shapes, content types, bearer auth and errors (metav1 Status) for the few
// resources the scaler uses, so the real @kubernetes/client-node is exercised end to end:
//   GET                /apis/apps/v1/namespaces/{ns}/deployments/{name}
//   GET | PUT | PATCH  /apis/apps/v1/namespaces/{ns}/deployments/{name}/scale   (autoscaling/v1 Scale)
//   GET                /api/v1/namespaces/{ns}/pods?labelSelector=k=v,...
//   GET | PATCH        /api/v1/namespaces/{ns}/pods/{name}   (merge and strategic-merge patches)
// It also plays the ReplicaSet controller: a new replica count creates or deletes pods at once,
// deleting by the controller's rule for ready pods (lowest pod-deletion-cost first, then newest).
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';

export const DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';

export interface DoublePod {
  name: string;
  namespace: string;
  uid: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  creationTimestamp: string;
  resourceVersion: number;
}

interface DoubleDeployment {
  name: string;
  namespace: string;
  uid: string;
  replicas: number;
  matchLabels: Record<string, string>;
  resourceVersion: number;
  generation: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  body: unknown;
}

class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

export class KubeApiDouble {
  readonly token = randomBytes(16).toString('hex');
  readonly requests: RecordedRequest[] = [];
  /** Names of pods the fake ReplicaSet deleted, in order. */
  readonly deletedPods: string[] = [];
  private readonly deployments = new Map<string, DoubleDeployment>();
  private readonly pods = new Map<string, DoublePod>();
  private resourceVersion = 1000;
  private podCounter = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<KubeApiDouble> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const double = new KubeApiDouble(server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => void double.handle(req, res));
    return double;
  }

  /** A client configuration pointing at this server with its bearer token, as a kubeconfig would. */
  kubeConfig(namespace = 'default'): KubeConfig {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'double', server: this.url, skipTLSVerify: true }],
      users: [{ name: 'scaler', token: this.token }],
      contexts: [{ name: 'double', cluster: 'double', user: 'scaler', namespace }],
      currentContext: 'double',
    });
    return kc;
  }

  addDeployment(namespace: string, name: string, replicas: number, matchLabels: Record<string, string>): DoublePod[] {
    const deployment: DoubleDeployment = { name, namespace, uid: randomUUID(), replicas: 0, matchLabels, resourceVersion: this.nextVersion(), generation: 1 };
    this.deployments.set(`${namespace}/${name}`, deployment);
    this.setReplicas(deployment, replicas);
    return this.podsOf(deployment);
  }

  replicasOf(namespace: string, name: string): number {
    return this.deployment(namespace, name).replicas;
  }

  podsOf(deployment: Pick<DoubleDeployment, 'namespace' | 'matchLabels'>): DoublePod[] {
    return [...this.pods.values()].filter((p) => p.namespace === deployment.namespace && matchesSelector(p.labels, deployment.matchLabels));
  }

  podsOfDeployment(namespace: string, name: string): DoublePod[] {
    return this.podsOf(this.deployment(namespace, name));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private nextVersion(): number {
    return ++this.resourceVersion;
  }

  private deployment(namespace: string, name: string): DoubleDeployment {
    const d = this.deployments.get(`${namespace}/${name}`);
    if (!d) throw new ApiError(404, 'NotFound', `deployments.apps "${name}" not found`);
    return d;
  }

  /** The ReplicaSet controller, instantly. */
  private setReplicas(d: DoubleDeployment, replicas: number): void {
    d.replicas = replicas;
    d.resourceVersion = this.nextVersion();
    d.generation += 1;
    const pods = this.podsOf(d);
    for (let i = pods.length; i < replicas; i++) {
      const name = `${d.name}-${(++this.podCounter).toString(36).padStart(5, '0')}`;
      this.pods.set(`${d.namespace}/${name}`, {
        name,
        namespace: d.namespace,
        uid: randomUUID(),
        labels: { ...d.matchLabels },
        annotations: {},
        creationTimestamp: new Date(Date.now() + this.podCounter).toISOString(),
        resourceVersion: this.nextVersion(),
      });
    }
    if (pods.length > replicas) {
      const cost = (p: DoublePod) => Number(p.annotations[DELETION_COST_ANNOTATION] ?? 0);
      const victims = [...pods].sort((a, b) => cost(a) - cost(b) || b.creationTimestamp.localeCompare(a.creationTimestamp)).slice(0, pods.length - replicas);
      for (const p of victims) {
        this.pods.delete(`${p.namespace}/${p.name}`);
        this.deletedPods.push(p.name);
      }
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    let body: unknown;
    try {
      const raw = await readBody(req);
      body = raw.length > 0 ? JSON.parse(raw) : undefined;
      this.requests.push({ method: req.method ?? '', path: url.pathname + url.search, contentType: req.headers['content-type'], body });
      if (req.headers.authorization !== `Bearer ${this.token}`) throw new ApiError(401, 'Unauthorized', 'Unauthorized');
      const result = this.route(req.method ?? 'GET', url, req.headers['content-type'], body);
      send(res, 200, result);
    } catch (err) {
      if (err instanceof ApiError) send(res, err.code, status(err.code, err.reason, err.message));
      else if (err instanceof SyntaxError) send(res, 400, status(400, 'BadRequest', `invalid JSON: ${err.message}`));
      else send(res, 500, status(500, 'InternalError', (err as Error).message));
    }
  }

  private route(method: string, url: URL, contentType: string | undefined, body: unknown): unknown {
    let m = /^\/apis\/apps\/v1\/namespaces\/([^/]+)\/deployments\/([^/]+)(\/scale)?$/.exec(url.pathname);
    if (m) {
      const d = this.deployment(m[1]!, m[2]!);
      if (!m[3]) {
        if (method !== 'GET') throw new ApiError(405, 'MethodNotAllowed', `${method} is not allowed`);
        return this.deploymentJson(d);
      }
      if (method === 'GET') return this.scaleJson(d);
      if (method === 'PUT') return this.replaceScale(d, body);
      if (method === 'PATCH') {
        requirePatchType(contentType);
        const replicas = (body as { spec?: { replicas?: unknown } } | undefined)?.spec?.replicas;
        return this.replaceScale(d, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: d.name }, spec: { replicas } });
      }
      throw new ApiError(405, 'MethodNotAllowed', `${method} is not allowed`);
    }
    m = /^\/api\/v1\/namespaces\/([^/]+)\/pods(?:\/([^/]+))?$/.exec(url.pathname);
    if (m) {
      const namespace = m[1]!;
      if (!m[2]) {
        if (method !== 'GET') throw new ApiError(405, 'MethodNotAllowed', `${method} is not allowed`);
        const selector = parseSelector(url.searchParams.get('labelSelector'));
        const items = [...this.pods.values()].filter((p) => p.namespace === namespace && matchesSelector(p.labels, selector));
        return { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: String(this.resourceVersion) }, items: items.map((p) => podJson(p)) };
      }
      const pod = this.pods.get(`${namespace}/${m[2]}`);
      if (!pod) throw new ApiError(404, 'NotFound', `pods "${m[2]}" not found`);
      if (method === 'GET') return podJson(pod);
      if (method !== 'PATCH') throw new ApiError(405, 'MethodNotAllowed', `${method} is not allowed`);
      requirePatchType(contentType);
      const annotations = (body as { metadata?: { annotations?: Record<string, unknown> } } | undefined)?.metadata?.annotations ?? {};
      for (const [key, value] of Object.entries(annotations)) {
        if (value === null) {
          delete pod.annotations[key];
          continue;
        }
        if (typeof value !== 'string') throw new ApiError(400, 'BadRequest', `metadata.annotations.${key}: must be a string`);
        // The API server validates this annotation: a 32-bit integer.
        if (key === DELETION_COST_ANNOTATION && !/^-?\d+$/.test(value))
          throw new ApiError(422, 'Invalid', `metadata.annotations: Invalid value: "${value}": must be a 32bit integer`);
        pod.annotations[key] = value;
      }
      pod.resourceVersion = this.nextVersion();
      return podJson(pod);
    }
    throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
  }

  private replaceScale(d: DoubleDeployment, body: unknown): unknown {
    const scale = body as
      | { apiVersion?: string; kind?: string; metadata?: { name?: string; resourceVersion?: string }; spec?: { replicas?: unknown } }
      | undefined;
    if (scale?.kind !== 'Scale' || scale.apiVersion !== 'autoscaling/v1') throw new ApiError(400, 'BadRequest', 'the body must be an autoscaling/v1 Scale');
    if (scale.metadata?.name !== d.name) throw new ApiError(400, 'BadRequest', 'the name of the object does not match the name on the URL');
    const replicas = scale.spec?.replicas;
    if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0)
      throw new ApiError(422, 'Invalid', 'spec.replicas: Invalid value: must be greater than or equal to 0');
    if (scale.metadata.resourceVersion !== undefined && scale.metadata.resourceVersion !== String(d.resourceVersion)) {
      throw new ApiError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on deployments.apps "${d.name}": the object has been modified; please apply your changes to the latest version and try again`,
      );
    }
    this.setReplicas(d, replicas);
    return this.scaleJson(d);
  }

  private scaleJson(d: DoubleDeployment): unknown {
    return {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: d.name, namespace: d.namespace, uid: d.uid, resourceVersion: String(d.resourceVersion) },
      spec: { replicas: d.replicas },
      status: {
        replicas: this.podsOf(d).length,
        selector: Object.entries(d.matchLabels)
          .map(([k, v]) => `${k}=${v}`)
          .join(','),
      },
    };
  }

  private deploymentJson(d: DoubleDeployment): unknown {
    const template = { metadata: { labels: d.matchLabels }, spec: { containers: [{ name: 'media-worker', image: 'onair/media-worker:test' }] } };
    const ready = this.podsOf(d).length;
    return {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: d.name, namespace: d.namespace, uid: d.uid, resourceVersion: String(d.resourceVersion), generation: d.generation },
      spec: { replicas: d.replicas, selector: { matchLabels: d.matchLabels }, template },
      status: { observedGeneration: d.generation, replicas: ready, readyReplicas: ready, availableReplicas: ready },
    };
  }
}

function podJson(p: DoublePod): unknown {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      name: p.name,
      namespace: p.namespace,
      uid: p.uid,
      labels: p.labels,
      annotations: p.annotations,
      creationTimestamp: p.creationTimestamp,
      resourceVersion: String(p.resourceVersion),
    },
    spec: { containers: [{ name: 'media-worker', image: 'onair/media-worker:test' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

function status(code: number, reason: string, message: string): unknown {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

function send(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function requirePatchType(contentType: string | undefined): void {
  const type = contentType?.split(';')[0]?.trim();
  if (type !== 'application/merge-patch+json' && type !== 'application/strategic-merge-patch+json') {
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`,
    );
  }
}

function parseSelector(selector: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!selector) return out;
  for (const term of selector.split(',')) {
    const [key, value] = term.split('=');
    if (!key || value === undefined) throw new ApiError(400, 'BadRequest', `unable to parse requirement: ${term}`);
    out[key] = value;
  }
  return out;
}

function matchesSelector(labels: Record<string, string>, selector: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
