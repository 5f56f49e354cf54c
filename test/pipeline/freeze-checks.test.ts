import { Testing, Duration } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { ClusterSelector, PromotionPipeline } from '../../src';
import { DeployFreeze, FreezeSchedule } from '../../src/pipeline/deploy-freeze';
import { checkFreezes } from '../../src/pipeline/freeze-checks';
import { ProblemList } from '../../src/util/errors';
import { HostLanguage } from '../../src/util/host-language';

const freeze = (stages?: string[]) => new DeployFreeze({ reason: 'year-end', schedule: FreezeSchedule.cron('0 0 20 12 *', Duration.days(14)), stages });

describe('checkFreezes', () => {
  test('keeps the DeployFreezes, for the checks after it, and reports everything else by index', () => {
    const problems = new ProblemList('PlatformApp \'api\'');
    const kept = checkFreezes(problems, 'freezes', [freeze(), 'year-end' as never, freeze(['prod'])]);
    expect(kept).toHaveLength(2);
    expect(() => problems.throwIfAny()).toThrow(/^PlatformApp 'api': freezes\[1\] must be a DeployFreeze, got "year-end"; use new DeployFreeze\(/);
  });

  test('a stage\'s own freeze must apply to that stage: one naming only other stages would never hold', () => {
    const problems = new ProblemList('PromotionPipeline \'p\'');
    checkFreezes(problems, 'stage "late" freezes', [freeze(), freeze(['late', 'prod']), freeze(['prod'])], 'late');
    expect(() => problems.throwIfAny()).toThrow('PromotionPipeline \'p\': stage "late" freezes[2].stages does not include the stage "late" it is given to, '
      + 'got ["prod"]; leave stages unset on a stage\'s own freezes');
  });

  test.each([
    [HostLanguage.TYPESCRIPT, 'freezes[0]', "new DeployFreeze({ reason, schedule: FreezeSchedule.cron('0 0 20 12 *', Duration.days(14)) })"],
    [HostLanguage.PYTHON, 'freezes[0]', 'DeployFreeze(reason=..., schedule=FreezeSchedule.cron("0 0 20 12 *", Duration.days(14)))'],
    [HostLanguage.JAVA, 'freezes[0]', 'new DeployFreeze(DeployFreezeProps.builder().reason(...).schedule(FreezeSchedule.cron("0 0 20 12 *", Duration.days(14))).build())'],
    [HostLanguage.GO, 'Freezes[0]', 'NewDeployFreeze(&DeployFreezeProps{Reason: ..., Schedule: FreezeSchedule_Cron(jsii.String("0 0 20 12 *"), Duration_Days(jsii.Number(14)))})'],
    [HostLanguage.DOTNET, 'Freezes[0]', 'new DeployFreeze(new DeployFreezeProps { Reason = ..., Schedule = FreezeSchedule.Cron("0 0 20 12 *", Duration.Days(14)) })'],
  ])('fails if a stage freeze is not a DeployFreeze, naming the field and the constructor in %s', (language, name, fix) => {
    const stage = { name: 'prod', clusters: ClusterSelector.all(), freezes: [{ reason: 'x' } as never] };
    expect(() => HostLanguage.using(language, () => new PromotionPipeline(Testing.app(), 'p', { stages: [stage] })))
      .toThrow(`PromotionPipeline 'p': stage "prod" ${name} must be a DeployFreeze, got {"reason":"x"}; use ${fix}`);
  });
});
