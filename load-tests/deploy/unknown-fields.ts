// The JSON schemas of the Kubernetes API allow fields they do not define (the API server drops
// them with a warning), so a misspelt `livenesProbe` passes schema validation and is silently
// ignored in a cluster. This walks a manifest along the API's own type tables (the generated
// models of @kubernetes/client-node, one attribute table per type) and names every field the API
// does not know, like `kubectl apply --validate=strict`.
import * as k8s from '@kubernetes/client-node';
import { isObject, type Json, type Manifest } from './kustomize.ts';

interface Attribute {
  baseName: string;
  type: string;
}

const models = k8s as unknown as Record<string, { getAttributeTypeMap?: () => Attribute[] } | undefined>;

/** The model type of a top-level object: `apps/v1` + `Deployment` → `V1Deployment`. */
function rootType(apiVersion: string, kind: string): string | undefined {
  const version = apiVersion.split('/').at(-1) ?? '';
  const name = `${version.charAt(0).toUpperCase()}${version.slice(1)}${kind}`;
  return models[name]?.getAttributeTypeMap ? name : undefined;
}

function walk(value: Json, type: string, path: string, out: string[]): void {
  const array = /^Array<(.+)>$/.exec(type);
  if (array) {
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, array[1]!, `${path}[${i}]`, out));
    return;
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) {
    if (isObject(value)) for (const [key, item] of Object.entries(value)) walk(item, map[1]!, `${path}.${key}`, out);
    return;
  }
  const attributes = models[type]?.getAttributeTypeMap?.();
  // Scalars, IntOrString, free-form objects: nothing to check inside.
  if (!attributes || !isObject(value)) return;
  const known = new Map(attributes.map((a) => [a.baseName, a.type]));
  for (const [key, item] of Object.entries(value)) {
    const itemType = known.get(key);
    if (itemType === undefined) out.push(`${path}.${key}`);
    else walk(item, itemType, `${path}.${key}`, out);
  }
}

/** Paths of fields the Kubernetes API does not define; empty for a kind it has no model of (a CRD). */
export function unknownFields(manifest: Manifest): string[] {
  const type = rootType(manifest.apiVersion, manifest.kind);
  if (!type) return [];
  const out: string[] = [];
  walk(manifest, type, manifest.kind, out);
  return out;
}

/** Whether the API's type tables cover this kind (built-in kinds do, CRDs do not). */
export function hasModel(manifest: Pick<Manifest, 'apiVersion' | 'kind'>): boolean {
  return rootType(manifest.apiVersion, manifest.kind) !== undefined;
}
