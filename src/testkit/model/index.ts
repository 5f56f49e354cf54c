export * from './controller-finding';
export * from './simulate-controllers';
export type { ClusterConnectionOptions } from './argocd-cluster-connection';
export type { PromotionModelOptions } from './kargo-promotion-model';
export { SCENARIOS } from './kargo-promotion-model';
export type { ChartDependency } from './kargo-steps';
