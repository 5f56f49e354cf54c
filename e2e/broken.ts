import { readdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { log } from './lib/log';
import { parseDocs } from './lib/manifests';
import { ReleaseTiming } from './report';
import {
  applicationHealthy, changePlatform, followRelease, pipelineOf, release, rollForward, scenarioApproval, scenarioFailedVerification,
  scenarioFreeze, scenarioRollback, scenarioWaveMove, World,
} from './scenarios';

/**
 * A deliberately broken variant of a scenario: the same scenario code run with one thing broken,
 * which must make it fail with a message that names the object. It proves the scenario's checks
 * can fail. `repair` puts the world back for the scenarios after it, whatever happened.
 */
export interface BrokenVariant {
  /** The scenario it breaks. */
  readonly scenario: string;
  /** What is broken. */
  readonly broken: string;
  /** The failure it must end in: the object named. */
  readonly expect: RegExp;
  readonly run: (w: World, timings: ReleaseTiming[]) => Promise<void>;
  readonly repair?: (w: World) => Promise<void>;
}

/** The cluster of web's broad ring now (the last to get a release). */
function broadCluster(w: World): string {
  return pipelineOf(w, 'web')[3].clusters[0];
}

let resumeKwok: (() => void) | undefined;

export const BROKEN_VARIANTS: BrokenVariant[] = [
  {
    scenario: 'release',
    broken: 'the broad ring\'s cluster has no working node (its kwok is stopped): the new pods never become ready',
    expect: /Application web-(e2e-prod-\d) is \w+\/(?!Healthy)\w+; Deployment web\/web on \1/,
    run: async (w, timings) => {
      resumeKwok = w.procs.pause(`${broadCluster(w)}-kwok`);
      await release(w, timings, '1.1.1', 30_000);
    },
    repair: async w => {
      resumeKwok?.();
      resumeKwok = undefined;
      await applicationHealthy(w, 'web', broadCluster(w), 180_000);
    },
  },
  {
    scenario: 'failed-verification',
    broken: 'the verification endpoint answers 200 for a cluster that is failing: the check does not see the failure',
    expect: /Stage web\/staging verified web:1\.2\.1 \(Freight \w+\) although e2e-staging-1 was failing/,
    run: async (w, timings) => {
      w.metrics.lying = true;
      await scenarioFailedVerification(w, timings, '1.2.1');
    },
    // the release was verified: it goes on to production, as Kargo promotes it automatically
    repair: async w => {
      w.metrics.lying = false;
      await followRelease(w, 'web', '1.2.1', Date.now(), 240_000, pipelineOf(w, 'web').slice(2));
    },
  },
  {
    scenario: 'approval',
    broken: 'the platform commit lacks the RoleBinding api/promoter-prod the library wrote (a hand edit of manifests/)',
    expect: /ServiceAccount api\/promoter-prod, the promoter the library allowed for Stage api\/prod, could not promote api:1\.1\.0: .*promoter-prod/,
    run: async (w, timings) => {
      await changePlatform(w, w.env, 'drop RoleBinding api/promoter-prod', dir => dropDocument(dir, 'RoleBinding', 'api', 'promoter-prod'));
      await scenarioApproval(w, timings, '1.1.0');
    },
    repair: async w => changePlatform(w, w.env, 'restore the platform as synthesized'),
  },
  {
    scenario: 'freeze',
    broken: 'the freeze is declared in the wrong time zone (Pacific/Kiritimati, UTC+14): its window is not now',
    expect: /Promotion \S+ into web\/prod-canary \(created [^)]+\) succeeded; the freeze window was/,
    run: (w, timings) => scenarioFreeze(w, timings, '1.3.1', 'Pacific/Kiritimati'),
  },
  {
    scenario: 'rollback',
    broken: 'the rollback names a release that never passed staging\'s verification (web:1.2.0)',
    expect: /Promotion (\S+ )?of web:1\.2\.0 (\(Freight \w+\) )?into web\/prod-canary (refused|Failed|Errored)/,
    run: (w, timings) => scenarioRollback(w, timings, '1.2.0'),
    // a Promotion a person created for older Freight holds the Stage's auto-promotion, refused or not
    repair: rollForward,
  },
  {
    scenario: 'wave-move',
    broken: 'the Deployment web/web on a moving cluster is deleted while it moves',
    expect: /a moved cluster stopped running web: (e2e-prod-\d): (no Deployment web\/web|Deployment web\/web was replaced)/,
    run: (w, timings) => scenarioWaveMove(w, timings, '1.4.1', async moved => {
      const c = w.clusters.find(x => x.name === moved[0])!;
      await c.admin.delete('apps/v1', 'Deployment', 'web', 'web');
      log(`  deleted Deployment web/web on ${c.name}`);
    }),
  },
];

/**
 * Runs a broken variant (its releases are not timed): `failure` is how it failed; `problem` says
 * why that is not how it must fail.
 */
export async function runBroken(w: World, v: BrokenVariant): Promise<{ failure?: string; problem?: string }> {
  let failure: string | undefined;
  try {
    await v.run(w, []);
  } catch (e) {
    failure = (e as Error).message;
  } finally {
    await v.repair?.(w);
  }
  if (failure === undefined) return { problem: `passed although ${v.broken}` };
  if (!v.expect.test(failure)) return { failure, problem: `failed, but not with a message matching ${v.expect}: ${failure}` };
  return { failure };
}

/** Removes one object from the synthesized manifests in `dir`, keeping every other document's text. */
function dropDocument(dir: string, kind: string, namespace: string, name: string): void {
  let dropped = 0;
  for (const file of readdirSync(dir).filter(f => f.endsWith('.k8s.yaml'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    const docs = text.split(/^---\n/m);
    const kept = docs.filter(doc => {
      const obj = parseDocs(doc)[0];
      const match = obj?.kind === kind && obj.metadata.namespace === namespace && obj.metadata.name === name;
      if (match) dropped++;
      return !match;
    });
    if (kept.length !== docs.length) writeFileSync(join(dir, file), kept.join('---\n'));
  }
  if (dropped !== 1) throw new Error(`the synthesized platform has ${dropped} ${kind} ${namespace}/${name}, expected 1`);
}
