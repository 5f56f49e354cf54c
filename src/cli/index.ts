// The `cdk8s-gitops-platform/cli` entry point (TypeScript only, not part of the jsii API): what a
// script drives the command line with and reads back. `run` with an I/O of its own, the exit
// codes, and the types of the JSON `plan --json`, `validate --json` and `status --json` print
// (their JSON Schemas ship beside it as `cdk8s-gitops-platform/cli/plan-output.schema.json`,
// `.../validate-output.schema.json` and `.../status-output.schema.json`). The model, the diff,
// the rules and the renderers behind the commands stay internal, so they can change without
// breaking a script; test/cli/index.test.ts pins this list and that every member is documented.
export { run, EXIT_OK, EXIT_VIOLATION, EXIT_USAGE, EXIT_DETAILED_ERROR, EXIT_DETAILED_CHANGES } from './run';
export type { CliIo } from './run';
export { OUTPUT_SCHEMA_VERSION } from './plan-json';
export type {
  PlanOutput, AppOutput, StageOutput, WaveOutput, ObjectsOutput, ChangedObjectOutput, FleetOutput, RuleOutput, RuleViolationOutput, FreezeOutput,
  ValidateOutput, ValidateIssueOutput,
} from './plan-json';
export type { RiskFlag, RiskCode } from './risk-flags';
export type { FieldChange } from './object-fields';
// `status --json` as scripts read it (schema: cli/status-output.schema.json)
export type { StatusOutput, AppStatus, StageStatus, WaveStatus, ClusterStatus, ReleaseOutput, LiveCluster, QueryOutput } from './status/status-model';
