// Renders every kustomization of k8s/ and checks each manifest against the Kubernetes schemas,
// then checks the promises the fleet depends on (probes, drain grace, the render workers' fence,
// the scaler's permissions) on what would actually be applied.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { build, isObject, KustomizeError, podTemplate, resourceId, strategicMerge, type Json, type JsonObject, type Manifest } from './kustomize.ts';
import { hasModel, unknownFields } from './unknown-fields.ts';
import { schemaErrors } from './validate-manifest.ts';

const k8s = (path: string) => fileURLToPath(new URL(`../../k8s/${path}`, import.meta.url));
const kustomizations = ['base', 'demo-datastores', 'overlays/example', 'overlays/example-keda'];

function find(manifests: Manifest[], kind: string, name: string): Manifest {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} is not rendered`);
  return found;
}

function obj(value: Json | undefined, what: string): JsonObject {
  if (!isObject(value)) throw new Error(`${what} is not an object`);
  return value;
}

function list(value: Json | undefined): JsonObject[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function containersOf(m: Manifest): JsonObject[] {
  return list(obj(podTemplate(m)?.spec, `${resourceId(m)} pod spec`).containers);
}

function matches(selector: Json | undefined, labels: Json | undefined): boolean {
  if (!isObject(selector) || !isObject(labels) || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** The kustomize inside the machine's kubectl, when it is version 5 or later (see kustomize.ts for why it may not be). */
function realKustomize(): string | undefined {
  try {
    const printed = execFileSync('kubectl', ['version', '--client'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const major = /Kustomize Version: v(\d+)\./.exec(printed)?.[1];
    return major && Number(major) >= 5 ? printed.trim() : undefined;
  } catch {
    return undefined;
  }
}
const kubectl = realKustomize();

describe('k8s manifests', () => {
  // Against the real tool: the same manifests, field for field (key order aside).
  it.skipIf(!kubectl).each(kustomizations)('%s renders as `kubectl kustomize` renders it', (dir) => {
    const theirs = parseAllDocuments(execFileSync('kubectl', ['kustomize', k8s(dir)], { encoding: 'utf8' })).map((d) => d.toJSON() as Manifest);
    const ours = build(k8s(dir)).map((m) => JSON.parse(JSON.stringify(m)) as Manifest);
    expect(ours.map(resourceId).sort()).toEqual(theirs.map(resourceId).sort());
    const differing = ours.filter(
      (m) =>
        !isDeepStrictEqual(
          m,
          theirs.find((t) => resourceId(t) === resourceId(m)),
        ),
    );
    expect(differing.map(resourceId)).toEqual([]);
  });

  it.each(kustomizations)('%s renders and every manifest is valid against the Kubernetes schemas', (dir) => {
    const manifests = build(k8s(dir));
    expect(manifests.length).toBeGreaterThan(0);
    const problems = manifests.flatMap((m) => schemaErrors(m).map((e) => `${resourceId(m)}: ${e}`));
    expect(problems).toEqual([]);
  });

  it.each(kustomizations)('%s uses no field the Kubernetes API does not define', (dir) => {
    const manifests = build(k8s(dir));
    expect(manifests.flatMap((m) => unknownFields(m).map((f) => `${resourceId(m)}: ${f}`))).toEqual([]);
    // Every built-in kind is covered; only KEDA's CRDs are left to their schemas.
    expect(
      manifests
        .filter((m) => !hasModel(m))
        .map((m) => m.kind)
        .filter((k) => !['ScaledObject', 'TriggerAuthentication'].includes(k)),
    ).toEqual([]);
  });

  it('names a misspelt field that the schemas let through', () => {
    const deployment = find(build(k8s('base')), 'Deployment', 'onair-media-worker');
    const typo = strategicMerge(deployment, {
      spec: { template: { spec: { containers: [{ name: 'media-worker', livenesProbe: { httpGet: { path: '/healthz', port: 9101 } } }] } } },
    }) as Manifest;
    expect(schemaErrors(typo)).toEqual([]);
    expect(unknownFields(typo)).toEqual(['Deployment.spec.template.spec.containers[0].livenesProbe']);
    const nested = strategicMerge(deployment, {
      metadata: { labelz: { a: 'b' } },
      spec: { template: { spec: { securityContext: { runAsUsr: 1 } } } },
    }) as Manifest;
    expect(unknownFields(nested)).toEqual(['Deployment.metadata.labelz', 'Deployment.spec.template.spec.securityContext.runAsUsr']);
  });

  it('reports a manifest that breaks the schema, and a kind it has no schema for', () => {
    const deployment = find(build(k8s('base')), 'Deployment', 'onair-api');
    const broken = strategicMerge(deployment, { spec: { replicas: 'two' } }) as Manifest;
    expect(schemaErrors(broken).join()).toMatch(/replicas must be integer/);
    const noContainers = strategicMerge(deployment, { spec: { template: { spec: { containers: null } } } }) as Manifest;
    expect(schemaErrors(noContainers).join()).toMatch(/containers/);
    expect(schemaErrors({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })).toEqual(['no schema for example.com/v1 Widget']);
  });

  it('refuses kustomization fields it would not render like kustomize', () => {
    expect(() => build(fileURLToPath(new URL('./fixtures/unsupported-field', import.meta.url)))).toThrow(KustomizeError);
  });

  const example = build(k8s('overlays/example'));

  it('the example overlay sets the namespace, the images and the host', () => {
    for (const m of example) {
      if (m.kind !== 'Namespace') expect(m.metadata.namespace, resourceId(m)).toBe('onair');
      expect(obj(m.metadata.labels, 'labels')['app.kubernetes.io/part-of']).toBe('onair');
    }
    const images = example.flatMap((m) => (podTemplate(m) ? containersOf(m).map((c) => c.image) : []));
    expect(images).toContain('registry.example.com/onair/api:0.1.0');
    expect(images).toContain('registry.example.com/onair/migrate:0.1.0');
    expect(images.filter((i) => typeof i === 'string' && i.startsWith('onair/'))).toEqual([]);
    const config = find(example, 'ConfigMap', 'onair-config');
    expect(config.data).toMatchObject({ PUBLIC_URL: 'https://studio.example.org', SCALER_ENABLED: 'true', DRAIN_GRACE_MS: '3600000' });
    const ingress = find(example, 'Ingress', 'onair');
    expect(list(obj(ingress.spec, 'ingress spec').rules).map((r) => r.host)).toEqual(['studio.example.org']);
  });

  it('every pod runs the Node.js major that the Dockerfile and ./onair install', () => {
    const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');
    const dockerMajor = /^FROM node:(\d+)-/m.exec(read('docker/Dockerfile'))?.[1];
    const onairMajor = /^NODE_VERSION=(\d+)\./m.exec(read('onair'))?.[1];
    expect(dockerMajor).toBe('24');
    expect(onairMajor).toBe(dockerMajor);
    // OnAir's own pods (the example overlay also carries the demo PostgreSQL and Redis).
    const templates = example.filter((m) => podTemplate(m) && containersOf(m).some((c) => String(c.image).includes('/onair/')));
    expect(templates.length).toBeGreaterThan(0);
    for (const m of templates)
      expect(obj(obj(podTemplate(m)?.metadata, 'pod metadata').labels, 'labels')['onair.dev/node-major'], resourceId(m)).toBe(dockerMajor);
  });

  it('every Deployment has resources, liveness and readiness probes on the right endpoints', () => {
    const expected: Record<string, { liveness: string; readiness: string; port: string | number }> = {
      // The api stays in service without workers: its probe counts only its own database and Redis.
      'onair-api': { liveness: '/healthz', readiness: '/readyz?scope=api', port: 'http' },
      'onair-media-worker': { liveness: '/healthz', readiness: '/healthz', port: 'metrics' },
      'onair-render-worker': { liveness: '/healthz', readiness: '/healthz', port: 'metrics' },
      // nginx-rtmp with a plain HTTP endpoint beside the RTMP port.
      'onair-ingest': { liveness: '/healthz', readiness: '/healthz', port: 'health' },
    };
    const deployments = example.filter((m) => m.kind === 'Deployment');
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(Object.keys(expected).sort());
    for (const d of deployments) {
      const want = expected[d.metadata.name]!;
      for (const c of containersOf(d)) {
        const resources = obj(c.resources, `${d.metadata.name} resources`);
        expect(obj(resources.requests, 'requests')).toHaveProperty('cpu');
        expect(obj(resources.limits, 'limits')).toHaveProperty('memory');
        expect(obj(obj(c.livenessProbe, 'livenessProbe').httpGet, 'httpGet')).toMatchObject({ path: want.liveness, port: want.port });
        expect(obj(obj(c.readinessProbe, 'readinessProbe').httpGet, 'httpGet')).toMatchObject({ path: want.readiness, port: want.port });
        // A named probe port must exist on the container.
        expect(list(c.ports).map((p) => p.name)).toContain(want.port);
      }
    }
    const metricsPort = (name: string) => list(containersOf(find(example, 'Deployment', name))[0]?.ports).find((p) => p.name === 'metrics')?.containerPort;
    expect(metricsPort('onair-media-worker')).toBe(9101);
    expect(metricsPort('onair-render-worker')).toBe(9102);
  });

  it('media workers get longer to terminate than their drain grace period', () => {
    const media = find(example, 'Deployment', 'onair-media-worker');
    const grace = obj(podTemplate(media)?.spec, 'pod spec').terminationGracePeriodSeconds;
    const drainMs = Number(obj(find(example, 'ConfigMap', 'onair-config').data, 'data').DRAIN_GRACE_MS);
    expect(typeof grace).toBe('number');
    expect(grace as number).toBeGreaterThan(drainMs / 1000);
  });

  it('every Service, PodDisruptionBudget and NetworkPolicy selects pods that exist', () => {
    const podLabels = example.flatMap((m) => {
      const t = podTemplate(m);
      return t && isObject(t.metadata) ? [t.metadata.labels] : [];
    });
    for (const m of example) {
      let selector: Json | undefined;
      if (m.kind === 'Service') selector = obj(m.spec, 'spec').selector;
      else if (m.kind === 'PodDisruptionBudget') selector = obj(obj(m.spec, 'spec').selector, 'selector').matchLabels;
      else if (m.kind === 'NetworkPolicy') selector = obj(obj(m.spec, 'spec').podSelector, 'podSelector').matchLabels;
      else continue;
      expect(
        podLabels.some((labels) => matches(selector, labels)),
        `${resourceId(m)} selects no pod`,
      ).toBe(true);
    }
    for (const name of ['onair-api', 'onair-media-worker', 'onair-render-worker']) find(example, 'PodDisruptionBudget', name);
  });

  it('every secret and config key a pod reads exists', () => {
    const secretKeys = (name: string) => Object.keys(obj(find(example, 'Secret', name).stringData, 'stringData'));
    for (const m of example) {
      if (!podTemplate(m)) continue;
      for (const c of containersOf(m)) {
        for (const e of list(c.env)) {
          const ref = isObject(e.valueFrom) && isObject(e.valueFrom.secretKeyRef) ? e.valueFrom.secretKeyRef : undefined;
          if (ref) expect(secretKeys(String(ref.name)), `${resourceId(m)} env ${String(e.name)}`).toContain(ref.key);
        }
        for (const from of list(c.envFrom)) {
          if (isObject(from.secretRef)) find(example, 'Secret', String(from.secretRef.name));
          if (isObject(from.configMapRef)) find(example, 'ConfigMap', String(from.configMapRef.name));
        }
      }
    }
    expect(secretKeys('onair-secrets')).toEqual(
      expect.arrayContaining([
        'DATABASE_URL',
        'REDIS_URL',
        'SECRETS_KEY',
        'SMTP_URL',
        'TWITCH_CLIENT_SECRET',
        'GOOGLE_CLIENT_SECRET',
        'FACEBOOK_CLIENT_SECRET',
      ]),
    );
  });

  it('render workers reach only the public internet, Redis, DNS and the media workers over UDP', () => {
    const policy = find(example, 'NetworkPolicy', 'onair-render-worker');
    const spec = obj(policy.spec, 'spec');
    expect(spec.policyTypes).toEqual(['Ingress', 'Egress']);
    const egress = list(spec.egress);
    const blocks = egress.flatMap((rule) => list(rule.to)).filter((to) => isObject(to.ipBlock));
    expect(blocks).toHaveLength(1);
    expect(obj(blocks[0]!.ipBlock, 'ipBlock')).toEqual({
      cidr: '0.0.0.0/0',
      except: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '100.64.0.0/10'],
    });
    const peers = egress.flatMap((rule) =>
      list(rule.to)
        .filter((to) => !isObject(to.ipBlock))
        .map((to) => ({ to, ports: list(rule.ports).map((p) => p.port) })),
    );
    expect(peers).toHaveLength(3);
    expect(peers).toContainEqual({ to: { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'onair-media-worker' } } }, ports: [undefined] });
    const udp = egress.find((rule) => list(rule.to).some((to) => isObject(to.podSelector) && JSON.stringify(to.podSelector).includes('onair-media-worker')));
    expect(udp?.ports).toEqual([{ protocol: 'UDP' }]);
    expect(peers).toContainEqual({ to: { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'onair-redis' } } }, ports: [6379] });
    expect(peers).toContainEqual({ to: { namespaceSelector: {}, podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } }, ports: [53, 53] });
  });

  it('the api may scale the media workers and annotate pods, and nothing more', () => {
    const role = find(example, 'Role', 'onair-media-scaler');
    const rules = list(role.rules).map((r) => ({ resources: r.resources, verbs: r.verbs }));
    expect(rules).toEqual([
      { resources: ['deployments'], verbs: ['get'] },
      { resources: ['deployments/scale'], verbs: ['get', 'patch', 'update'] },
      { resources: ['pods'], verbs: ['list', 'watch', 'patch'] },
    ]);
    const binding = find(example, 'RoleBinding', 'onair-media-scaler');
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'onair-api', namespace: 'onair' }]);
    expect(obj(podTemplate(find(example, 'Deployment', 'onair-api'))?.spec, 'spec').serviceAccountName).toBe('onair-api');
  });

  it('the Ingress sends /ws and everything else to the api; the migration Job runs the migrate image', () => {
    const ingress = find(example, 'Ingress', 'onair');
    const paths = list(obj(list(obj(ingress.spec, 'spec').rules)[0]?.http, 'http').paths);
    expect(paths.map((p) => p.path)).toEqual(['/ws', '/']);
    for (const p of paths) expect(obj(obj(p.backend, 'backend').service, 'service').name).toBe('onair-api');
    const job = find(example, 'Job', 'onair-migrate');
    expect(containersOf(job)[0]?.image).toBe('registry.example.com/onair/migrate:0.1.0');
  });

  it('the KEDA overlay scales the media workers on the sessions queue and turns the api scaler off', () => {
    const keda = build(k8s('overlays/example-keda'));
    const scaled = find(keda, 'ScaledObject', 'onair-media-worker');
    const spec = obj(scaled.spec, 'spec');
    expect(obj(spec.scaleTargetRef, 'target').name).toBe('onair-media-worker');
    expect(obj(list(spec.triggers)[0]?.metadata, 'trigger').listName).toBe('bull:sessions:wait');
    expect(obj(find(keda, 'ConfigMap', 'onair-config').data, 'data').SCALER_ENABLED).toBe('false');
    expect(scaled.metadata.namespace).toBe('onair');
  });
});
