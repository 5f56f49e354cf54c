import { DeployFreeze } from './deploy-freeze';
import { fail, show } from '../util/errors';

/**
 * Freezes must be `DeployFreeze`s; a stage's own freeze may not name other stages (it would
 * silently never apply).
 * @internal
 */
export function checkFreezes(subject: string, field: string, freezes: DeployFreeze[], stage?: string): void {
  freezes.forEach((f, i) => {
    if (!(f instanceof DeployFreeze)) {
      fail(subject, `${field}[${i}]`, f, 'must be a DeployFreeze', "use new DeployFreeze({ reason, schedule: FreezeSchedule.cron('0 0 20 12 *', Duration.days(14)) })");
    }
    if (stage !== undefined && !f.appliesTo(stage)) {
      fail(subject, `${field}[${i}].stages`, f.stages, `does not include the stage ${show(stage)} it is given to`,
        'leave stages unset on a stage\'s own freezes');
    }
  });
}
