export type { ControllerFinding } from './controller-finding';
export { CONTROLLER_FINDING_CODES, setSource } from './controller-finding';
export type { SimulateControllersOptions } from './simulate-controllers';
export { findingCodes, simulateControllers, simulateManifestDirectory } from './simulate-controllers';
export type { ClusterConnectionOptions } from './argocd-cluster-connection';
export type { PromotionModelOptions } from './kargo-promotion-model';
export { SCENARIOS } from './kargo-promotion-model';
export type { ChartDependency } from './kargo-steps';
