import { KubeConfig } from '@kubernetes/client-node';

/**
 * The Kubernetes API the scaler talks to: the pod's service account when running in a cluster,
 * else the KUBECONFIG file (or ~/.kube/config) of whoever runs the api.
 */
export function loadKubeConfig(env: NodeJS.ProcessEnv = process.env): KubeConfig {
  const kc = new KubeConfig();
  if (env.KUBERNETES_SERVICE_HOST) kc.loadFromCluster();
  else kc.loadFromDefault();
  return kc;
}
