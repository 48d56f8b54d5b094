// Validates rendered manifests against the Kubernetes API's JSON schemas. The schemas come from
// `kubernetes-models` (the Kubernetes OpenAPI definitions compiled to ajv validators, per kind) and
// `@kubernetes-models/keda` for KEDA's CRDs. A kind without a schema here is an error: a new kind
// in k8s/ must be added to the table, never skipped.
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { NetworkPolicy, Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Role, RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { ConfigMap, Namespace, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import type { Manifest } from './kustomize.ts';

interface Validatable {
  validate(): void;
}

const models: Record<string, new (data: never) => Validatable> = {
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'batch/v1/Job': Job,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'networking.k8s.io/v1/Ingress': Ingress,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'rbac.authorization.k8s.io/v1/Role': Role,
  'rbac.authorization.k8s.io/v1/RoleBinding': RoleBinding,
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
  'keda.sh/v1alpha1/TriggerAuthentication': TriggerAuthentication,
};

/** The schema violations of one manifest, as readable lines; empty when it is valid. */
export function schemaErrors(manifest: Manifest): string[] {
  const Model = models[`${manifest.apiVersion}/${manifest.kind}`];
  if (!Model) return [`no schema for ${manifest.apiVersion} ${manifest.kind}`];
  try {
    new Model(manifest as never).validate();
    return [];
  } catch (err) {
    return [(err as Error).message];
  }
}
