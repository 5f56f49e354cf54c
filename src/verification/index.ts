export * from './verification-arg';
export * from './check-options';
export * from './http-check';
export * from './prometheus-check';
export * from './job-check';
export * from './template-check';
export * from './verification';
export { MetricOutcome } from './metric-outcome';
