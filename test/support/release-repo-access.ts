import { Testing } from 'cdk8s';
import { appProps, SMALL_FLEET, standardPipeline } from './fixtures';
import { ArgoCdTopology, ClusterFleet, PlatformApp, PlatformAppProps } from '../../src';

const OWN_ARGO_CD = ['gcp-dev-h100', 'aws-prod-cpu-2'];

/** The small fleet with two clusters on their own Argo CD, and one app; every chart's objects. */
export function synthWithOwnArgoCd(overrides: Partial<PlatformAppProps>) {
  const app = Testing.app();
  const clusters = SMALL_FLEET.map(c => OWN_ARGO_CD.includes(c.name) ? { ...c, argoCd: ArgoCdTopology.perCluster({ namespace: 'gitops' }) } : c);
  const fleet = new ClusterFleet(app, 'fleet', { clusters, argoCdNamespace: 'argo' });
  new PlatformApp(app, 'api', appProps({ app, fleet, pipeline: standardPipeline(app) }, overrides));
  return app.charts.map(chart => ({ id: chart.node.id, objects: chart.toJson() as any[] }));
}

/** The Argo CD repository Secrets of every chart, with the chart and namespace each is in. */
export const repositorySecrets = (charts: ReturnType<typeof synthWithOwnArgoCd>) => charts.flatMap(c => c.objects
  .filter(o => o.kind === 'Secret' && o.metadata.labels?.['argocd.argoproj.io/secret-type'] === 'repository')
  .map(o => ({ chart: c.id, namespace: o.metadata.namespace, secret: o })));
