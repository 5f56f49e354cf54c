/**
 * The problem kinds the controller model finds in today's generated output (issue 8; part 1
 * fixes the emitters). Every test that runs the model on generated output accepts these and
 * nothing else. Once the emitters are fixed, flip this list to [] so the model guards the fixed
 * output.
 */
export const KNOWN_CONTROLLER_PROBLEMS: string[] = [
  'argocd-update-timeout-default',
  'artifact-unused',
  'cluster-ca-missing',
  'helm-dependency-not-found',
  'helm-template-capabilities',
  'namespace-not-permitted',
  'step-output-missing',
  'values-files-ignore-missing',
  'web-metric-non-json-passes',
];
