import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Duration, Testing } from 'cdk8s';
import { afterAll, describe, expect, test } from 'vitest';
import {
  ClusterFleet, CloudProvider, DeployFreeze, FreezeOverride, FreezeSchedule, PlatformApp, PlatformLabels, PlatformReport, Tier,
} from '../../src';
import { run } from '../../src/cli';
import { ManifestValidator } from '../../src/testkit';
import { appProps, errorOf, find, managedAuth, SMALL_FLEET, standardPipeline, synthApp, world } from '../support/fixtures';
import { PROD_APPS, yearEnd } from '../support/freezes';

/** The error of a pipeline holding `freeze`: a freeze's problems are reported by whoever holds it. */
const held = (freeze: DeployFreeze) => errorOf(() => standardPipeline(Testing.app(), { freezes: [freeze] }));
/** The error of an app with `override`. */
const withOverride = (override: FreezeOverride) => errorOf(() => {
  const w = world();
  new PlatformApp(w.app, 'api', appProps(w, { freezeOverride: override }));
});

describe('DeployFreeze', () => {
  test('a pipeline freeze on prod becomes one deny window on the AppProject, scoped to the prod Applications', () => {
    const w = world(SMALL_FLEET, { freezes: [yearEnd({ timeZone: 'Europe/Berlin' })] });
    const app = new PlatformApp(w.app, 'api', appProps(w));
    const objects = Testing.synth(app);
    expect(find(objects, 'AppProject', 'api').spec.syncWindows).toEqual([{
      kind: 'deny',
      schedule: '0 0 20 12 *',
      duration: '336h',
      timeZone: 'Europe/Berlin',
      manualSync: false,
      applications: PROD_APPS,
      description: 'year-end freeze',
      // a sync that started before the window finishes (Argo CD v3.5.1 SyncWindows.CanSync, denyAllowsOverrun)
      syncOverrun: true,
    }]);
    // Kargo: the prod waves start with the freeze's fail step; no wave waits a window out
    const steps = (stage: string) => find(objects, 'Stage', stage).spec.promotionTemplate.spec.steps;
    expect(steps('prod-canary')[0]).toMatchObject({ uses: 'fail', as: 'freeze-1', if: expect.stringMatching(/^\$\{\{ let wall = date\(now\(timezone\('Europe\/Berlin'\)\)/) });
    expect(steps('prod-broad')[0].uses).toBe('fail');
    expect(steps('dev').map((s: any) => s.uses)).not.toContain('fail');
    for (const stage of ['dev', 'prod-canary', 'prod-broad']) {
      expect(steps(stage).find((s: any) => s.uses === 'argocd-update').retry).toEqual({ timeout: '30m0s' });
    }
    expect(app.plan.stages.map(s => s.freezes.length)).toEqual([0, 0, 1]);
    expect(ManifestValidator.load().validateObjects(objects)).toEqual([]);
  });

  test('no freeze: no window, the default sync timeout', () => {
    const { objects } = synthApp();
    expect(find(objects, 'AppProject', 'api').spec.syncWindows).toBeUndefined();
    const timeouts = [...JSON.stringify(objects).matchAll(/"retry":\{"timeout":"([^"]+)"\}/g)].map(m => m[1]);
    expect(new Set(timeouts)).toEqual(new Set(['30m0s']));
  });

  test('fails if the schedule is one Argo CD v3.5.1 refuses or never fires', () => {
    expect(held(yearEnd({ schedule: FreezeSchedule.cron('0 18 * * 5-7', Duration.days(1)) })))
      .toMatch(/PromotionPipeline 'standard': freezes\[0\]: schedule is refused by Argo CD v3.5.1's cron parser \(robfig\/cron\): day-of-week "5-7": end of range \(7\) above maximum \(6\): 5-7, got "0 18 \* \* 5-7"; day-of-week takes 0-6 or sun-sat.*; Argo CD counts Sunday as 0 only/);
    expect(held(yearEnd({ schedule: FreezeSchedule.cron('*/0 * * * *', Duration.days(1)) }))).toMatch(/PromotionPipeline 'standard': freezes\[0\]: schedule .*minute "\*\/0": step of range should be a positive number: \*\/0/);
    expect(held(yearEnd({ schedule: FreezeSchedule.cron('0 0 */x * *', Duration.days(1)) }))).toMatch(/day-of-month "\*\/x": failed to parse int from x/);
    expect(held(yearEnd({ schedule: FreezeSchedule.cron('@every 1h', Duration.days(1)) }))).toMatch(/PromotionPipeline 'standard': freezes\[0\]: schedule is refused by .*parser does not accept descriptors: @every 1h, got "@every 1h"/);
    expect(held(yearEnd({ schedule: FreezeSchedule.cron('0 0 30 2 *', Duration.days(1)) })))
      .toMatch(/PromotionPipeline 'standard': freezes\[0\]: schedule never fires, and Argo CD v3.5.1 holds a window whose schedule never fires active for ever.*got "0 0 30 2 \*"; name a day that exists/);
  });

  test('a freeze\'s problems name the pipeline, stage or app that holds it, all at once', () => {
    const bad = yearEnd({ reason: ' ', timeZone: 'Mars/Olympus' });
    expect(held(bad)).toMatch(/^PromotionPipeline 'standard': 2 problems\n {2}- freezes\[0\]: reason is empty, got " "[^\n]*\n {2}- freezes\[0\]: timeZone is refused by Go's time.LoadLocation/);
    const w = world();
    expect(errorOf(() => w.pipeline.addStage({ name: 'late', clusters: w.pipeline.stages[0].clusters, freezes: [yearEnd({ stages: undefined, reason: '' })] })))
      .toMatch(/^PromotionPipeline 'standard': stage "late" freezes\[0\]: reason is empty/);
    const w2 = world();
    expect(errorOf(() => new PlatformApp(w2.app, 'api', appProps(w2, { freezes: [bad] })))).toMatch(/^PlatformApp 'api': 2 problems\n {2}- freezes\[0\]: reason is empty/);
  });

  test('fails if an override\'s until is not a real date (Date rolls 2026-02-30 over to March)', () => {
    for (const until of ['2026-02-30', '2026-13-01', '2026-12-24T25:00:00Z', '2026-12-24T18:61:00Z', '2026-12-24 18:00', '24.12.2026']) {
      expect(withOverride(FreezeOverride.of({ by: 'a', reason: 'x', until })), until).toMatch(/freezeOverride: until is not a real ISO date \(UTC\)/);
    }
    for (const until of ['2028-02-29', '2026-12-24', '2026-12-24T18:00:00Z', '2026-12-24T18:00Z', '2026-12-24T18:00:00.5Z']) {
      expect(() => synthApp(() => ({ freezeOverride: FreezeOverride.of({ by: 'a', reason: 'x', until }) })), until).not.toThrow();
    }
  });

  test('a freeze naming a stage the pipeline lacks says which one was meant', () => {
    const w = world(SMALL_FLEET, { freezes: [yearEnd({ stages: ['prdo'] })] });
    expect(errorOf(() => new PlatformApp(w.app, 'api', appProps(w)))).toMatch(/freezes\[0\]\.stages is not a stage of pipeline 'standard' \(dev, staging, prod\), got "prdo"; did you mean "prod"\?/);
  });

  test('fails if the time zone is one Go refuses though JavaScript accepts it (wrong case), suggesting its spelling', () => {
    // Intl accepts any case; Go's time.LoadLocation (Argo CD's SyncWindow, Kargo's timezone()) does not
    expect(held(yearEnd({ timeZone: 'europe/berlin' }))).toBe('PromotionPipeline \'standard\': freezes[0]: timeZone is refused by Go\'s time.LoadLocation, which Argo CD and Kargo '
      + 'read it with (unknown time zone europe/berlin), got "europe/berlin"; write it as the zone database spells it: "Europe/Berlin"');
    expect(held(yearEnd({ timeZone: 'us/pacific' }))).toMatch(/spells it: "America\/Los_Angeles"/);
    expect(yearEnd({ timeZone: 'Europe/Berlin' }).timeZone).toBe('Europe/Berlin');
  });

  test('a descriptor is spelled out in the emitted sync window (Argo CD refuses descriptors)', () => {
    const w = world(SMALL_FLEET, { freezes: [yearEnd({ schedule: FreezeSchedule.cron('@weekly', Duration.hours(2)) })] });
    const objects = Testing.synth(new PlatformApp(w.app, 'api', appProps(w)));
    expect(find(objects, 'AppProject', 'api').spec.syncWindows.map((x: any) => x.schedule)).toEqual(['0 0 * * 0']);
    expect(yearEnd({ schedule: FreezeSchedule.cron('@daily', Duration.hours(2)) }).schedule).toBe('0 0 * * *');
    expect(yearEnd({ schedule: FreezeSchedule.cron('@monthly', Duration.hours(2)) }).schedule).toBe('0 0 1 * *');
    expect(yearEnd({ schedule: FreezeSchedule.cron('@yearly', Duration.hours(2)) }).schedule).toBe('0 0 1 1 *');
    expect(yearEnd({ schedule: FreezeSchedule.cron('@hourly', Duration.hours(2)) }).schedule).toBe('0 * * * *');
  });

  test('validation names the field, the value and the fix', () => {
    expect(held(yearEnd({ schedule: FreezeSchedule.cron('0 0 20 12', Duration.days(1)) })))
      .toMatch(/PromotionPipeline 'standard': freezes\[0\]: schedule is refused by Argo CD v3.5.1's cron parser \(robfig\/cron\): expected exactly 5 fields, found 4: \[0 0 20 12\], got "0 0 20 12"/);
    expect(held(yearEnd({ schedule: FreezeSchedule.cron('0 0 32 12 *', Duration.days(1)) })))
      .toMatch(/day-of-month "32": end of range \(32\) above maximum \(31\): 32, got "0 0 32 12 \*"; day-of-month takes 1-31/);
    expect(held(yearEnd({ schedule: FreezeSchedule.cron('0 0 20 12 *', Duration.seconds(0)) }))).toMatch(/schedule duration.*whole number of minutes/);
    expect(held(yearEnd({ schedule: FreezeSchedule.cron('0 0 20 12 *', Duration.seconds(90)) }))).toMatch(/90s/);
    expect(held(yearEnd({ timeZone: 'Mars/Olympus' }))).toMatch(/timeZone is refused by Go's time.LoadLocation.*\(unknown time zone Mars\/Olympus\), got "Mars\/Olympus"/);
    expect(held(yearEnd({ reason: ' ' }))).toMatch(/PromotionPipeline 'standard': freezes\[0\]: reason.*is empty/);
    expect(withOverride(FreezeOverride.of({ by: '', reason: 'x' }))).toMatch(/^PlatformApp 'api': freezeOverride: by is empty/);
    expect(withOverride(FreezeOverride.of({ by: 'a', reason: 'x', until: 'tomorrow' }))).toMatch(/freezeOverride: until is not a real ISO date \(UTC\), got "tomorrow"/);
    // a freeze naming a stage the pipeline lacks would never apply
    const w = world(SMALL_FLEET, { freezes: [yearEnd({ stages: ['production'] })] });
    expect(() => new PlatformApp(w.app, 'api', appProps(w))).toThrow(/pipeline 'standard' freezes\[0\]\.stages is not a stage of pipeline 'standard' \(dev, staging, prod\), got "production"/);
    // a stage's own freeze may not name another stage
    const w2 = world();
    expect(() => w2.pipeline.addStage({ name: 'late', clusters: w2.pipeline.stages[0].clusters, freezes: [yearEnd()] }))
      .toThrow(/stage "late" freezes\[0\]\.stages.*does not include the stage "late"/);
  });

  test('every problem of one freeze, and of one override, is reported at once by whoever holds it', () => {
    expect(held(new DeployFreeze({
      reason: ' ',
      schedule: FreezeSchedule.cron('0 0 32 12 *', Duration.seconds(90)),
      timeZone: 'Mars/Olympus',
      stages: ['Prod'],
    }))).toBe([
      'PromotionPipeline \'standard\': 5 problems',
      '  - freezes[0]: reason is empty, got " "; say why nothing may ship, e.g. "year-end change freeze"',
      '  - freezes[0]: schedule is refused by Argo CD v3.5.1\'s cron parser (robfig/cron): day-of-month "32": end of range (32) above maximum (31): 32, '
        + 'got "0 0 32 12 *"; day-of-month takes 1-31, lists, ranges (a-b) and steps (*/n)',
      '  - freezes[0]: schedule duration must be a positive whole number of minutes (Argo CD checks windows once a minute), got "90s"; use Duration.hours() or Duration.days()',
      '  - freezes[0]: timeZone is refused by Go\'s time.LoadLocation, which Argo CD and Kargo read it with (unknown time zone Mars/Olympus), got "Mars/Olympus"; '
        + "use an IANA name as the zone database spells it, e.g. 'UTC', 'Europe/Berlin' or 'America/New_York'",
      '  - freezes[0]: stages must consist of lowercase letters, digits and \'-\', and start and end with a letter or digit, got "Prod"; name pipeline stages, e.g. "prod"',
    ].join('\n'));
    expect(held(new DeployFreeze({ reason: 'x', schedule: '0 0 20 12 *' as never, stages: ['Prod'] })))
      .toMatch(/^PromotionPipeline 'standard': 2 problems\n {2}- freezes\[0\]: schedule must be a FreezeSchedule, got "0 0 20 12 \*"; use FreezeSchedule.cron\(.*\n {2}- freezes\[0\]: stages must consist of lowercase/);
    expect(withOverride(FreezeOverride.of({ by: ' ', reason: '', until: 'tomorrow' })))
      .toMatch(/^PlatformApp 'api': 3 problems\n {2}- freezeOverride: by is empty.*\n {2}- freezeOverride: reason is empty.*\n {2}- freezeOverride: until is not a real ISO date/);
  });

  test('an override is recorded on the Kargo Project and AppProject and lets a person through', () => {
    const w = world(SMALL_FLEET, { freezes: [yearEnd()] });
    const app = new PlatformApp(w.app, 'api', appProps(w, { freezeOverride: FreezeOverride.of({ by: 'alice@acme.example', reason: 'CVE-2026-1234', until: '2026-12-24' }) }));
    const objects = Testing.synth(app);
    const record = 'CVE-2026-1234 (by alice@acme.example, until 2026-12-24)';
    expect(find(objects, 'Project', 'api').metadata.annotations[PlatformLabels.FREEZE_OVERRIDE]).toBe(record);
    const project = find(objects, 'AppProject', 'api');
    expect(project.metadata.annotations[PlatformLabels.FREEZE_OVERRIDE]).toBe(record);
    expect(project.spec.syncWindows[0].manualSync).toBe(true);
    expect(PlatformReport.renderApp(app)).toContain(`**Freeze override:** ${record}`);
  });

});

describe('the change review reads the freeze', () => {
  const temps: string[] = [];
  afterAll(() => temps.forEach(d => fs.rmSync(d, { recursive: true, force: true })));

  /** Synthesizes a fleet with `extra` prod clusters and one app into a directory. */
  const synthDir = (extra: number, override?: FreezeOverride): string => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-platform-freeze-'));
    temps.push(outdir);
    const app = new App({ outdir });
    const clusters = [...SMALL_FLEET, ...Array.from({ length: extra }, (_, i) => ({
      name: `aws-prod-cpu-x${i}`,
      server: `https://x${i}.example.com`,
      provider: CloudProvider.AWS,
      region: 'us-east-1',
      tier: Tier.PROD,
      kubernetesVersion: '1.31',
      labels: { ring: 'broad' },
      auth: managedAuth(CloudProvider.AWS, `aws-prod-cpu-x${i}`),
    }))];
    const fleet = new ClusterFleet(app, 'fleet', { clusters });
    const pipeline = standardPipeline(app, { freezes: [yearEnd()] });
    new PlatformApp(app, 'api', appProps({ app: app as any, fleet, pipeline }, { freezeOverride: override }));
    app.synth();
    return outdir;
  };
  const io = () => {
    const out: string[] = [];
    return { out, io: { cwd: os.tmpdir(), stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(t) } };
  };

  test('a production change inside the window exits 1; outside it, or with an override, 0', async () => {
    const base = synthDir(0);
    const head = synthDir(1);
    const frozen = io();
    expect(await run(['plan', '--base-dir', base, '--head-dir', head, '--now', '2026-12-24T12:00:00Z'], frozen.io)).toBe(1);
    expect(frozen.out.join('')).toContain('`no-production-change-during-freeze` api: changes production');
    expect(frozen.out.join('')).toContain('### 1 active freeze\n\n- api: `prod` frozen by "0 0 20 12 *" for 336h (UTC) – year-end freeze until 2027-01-03T00:00:00.000Z\n');
    const before = io();
    expect(await run(['plan', '--base-dir', base, '--head-dir', head, '--now', '2026-12-10T12:00:00Z'], before.io)).toBe(0);
    const overridden = io();
    const headOverride = synthDir(1, FreezeOverride.of({ by: 'alice@acme.example', reason: 'CVE-2026-1234' }));
    expect(await run(['plan', '--base-dir', base, '--head-dir', headOverride, '--now', '2026-12-24T12:00:00Z'], overridden.io)).toBe(0);
    expect(overridden.out.join('')).toContain('until 2027-01-03T00:00:00.000Z (manual sync allowed); overridden: CVE-2026-1234 (by alice@acme.example)');
  }, 120_000);
});
