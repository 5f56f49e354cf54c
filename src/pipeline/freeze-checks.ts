import { DeployFreeze } from './deploy-freeze';
import { ProblemList, show } from '../util/errors';

/**
 * Freezes must be `DeployFreeze`s; a stage's own freeze may not name other stages (it would
 * silently never apply). Returns the freezes that are `DeployFreeze`s, for the checks after it.
 * @internal
 */
export function checkFreezes(problems: ProblemList, field: string, freezes: DeployFreeze[], stage?: string): DeployFreeze[] {
  return freezes.filter((f, i) => {
    if (!(f instanceof DeployFreeze)) {
      problems.check(`${field}[${i}]`, f, 'must be a DeployFreeze', "use new DeployFreeze({ reason, schedule: FreezeSchedule.cron('0 0 20 12 *', Duration.days(14)) })");
      return false;
    }
    if (stage !== undefined && !f.appliesTo(stage)) {
      problems.check(`${field}[${i}].stages`, f.stages, `does not include the stage ${show(stage)} it is given to`,
        'leave stages unset on a stage\'s own freezes');
    }
    return true;
  });
}
