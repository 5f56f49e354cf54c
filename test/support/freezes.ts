import { Duration } from 'cdk8s';
import { DeployFreeze, FreezeSchedule } from '../../src';

/** The year-end freeze of prod (Dec 20 for 14 days, UTC), with `props` changed. */
export const yearEnd = (props: Partial<ConstructorParameters<typeof DeployFreeze>[0]> = {}) => new DeployFreeze({
  reason: 'year-end freeze',
  schedule: FreezeSchedule.cron('0 0 20 12 *', Duration.days(14)),
  stages: ['prod'],
  ...props,
});

/** The Applications of app `api` in prod on the small fleet. */
export const PROD_APPS = ['api-aws-prod-cpu-1', 'api-aws-prod-cpu-2', 'api-gcp-prod-h100-1', 'api-gcp-prod-h100-2'];
