import { DeployFreeze } from './deploy-freeze';
import { call, Code, ETC, fieldText, hint, newObject, num, prop, str, struct } from '../util/code-hint';
import { Field, ProblemList, reportValue, show } from '../util/errors';
import { HostLanguage } from '../util/host-language';

const SCHEDULE = call('FreezeSchedule', 'cron', str('0 0 20 12 *'), call('Duration', 'days', num(14)));
const FREEZE_PROPS = struct('DeployFreezeProps', { reason: ETC, schedule: SCHEDULE });
/** `new DeployFreeze({ reason, schedule: ... })`: TypeScript names the reason by shorthand. */
const NEW_FREEZE = newObject('DeployFreeze', {
  structFields: FREEZE_PROPS.structFields,
  spell: l => (l === HostLanguage.TYPESCRIPT ? `{ reason, schedule: ${SCHEDULE.spell(l)} }` : FREEZE_PROPS.spell(l)),
} satisfies Code);

/**
 * Freezes must be `DeployFreeze`s without problems of their own (reported here, naming where the
 * freeze is held); a stage's own freeze may not name other stages (it would silently never
 * apply). Returns the freezes that are valid `DeployFreeze`s, for the checks after it.
 * @internal
 */
export function checkFreezes(problems: ProblemList, field: Field, freezes: DeployFreeze[], stage?: string): DeployFreeze[] {
  const name = fieldText(field);
  return freezes.filter((f, i) => {
    if (!(f instanceof DeployFreeze)) {
      problems.check(`${name}[${i}]`, f, 'must be a DeployFreeze', hint`use ${NEW_FREEZE}`);
      return false;
    }
    // the freeze's own problems, under the pipeline, stage or app that holds it
    reportValue(problems, `${name}[${i}]`, f);
    if (f._problems.length > 0) return false;
    if (stage !== undefined && !f.appliesTo(stage)) {
      problems.check(`${name}[${i}].${fieldText(prop('stages'))}`, f.stages, `does not include the stage ${show(stage)} it is given to`,
        hint`leave ${prop('stages')} unset on a stage's own freezes`);
    }
    return true;
  });
}
