import { ControllerLoad } from '../load/controller-load';
import { mdCode, mdText } from '../util/markdown';

/** Kargo's default per-registry rate limit (`pkg/image/registry.go`: 20 requests/s), per hour. */
const REGISTRY_LIMIT_PER_HOUR = 20 * 3600;

/**
 * The controller load as a Markdown section of the fleet report; the README's "The fleet
 * report" section names the upstream source of every figure.
 * @internal
 */
export function controllerLoadMarkdown(load: ControllerLoad): string[] {
  const lines = ['', '## Controller load', '',
    'Counted from the synthesized objects of every app and fleet; the README (The fleet report) names the upstream code behind each figure.',
    '', '### Argo CD', '',
    '| Argo CD | ApplicationSets | Applications | clusters | ApplicationSets requeued per cluster Secret change | Applications they render |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...load.argoCds.map(a => `| ${mdText(a.instance)} | ${a.applicationSets} | ${a.applications} | ${a.clusters} | ${a.requeuedPerClusterSecretChange} | ${a.renderedPerClusterSecretChange} |`)];
  const sharded = load.argoCds.filter(a => a.applicationSets > 0);
  if (sharded.length > 0) {
    lines.push('', '### Application controller shards', '', '| Argo CD | shard | Applications | clusters |', '| --- | --- | ---: | ---: |',
      ...sharded.flatMap(a => a.shards.map(s => `| ${mdText(a.instance)} | ${mdText(s.shard)} | ${s.applications} | ${s.clusters} |`)));
  }
  lines.push('', '### Kargo', '', '| Kargo shard | Stages | Warehouses | AnalysisTemplate references |', '| --- | ---: | ---: | ---: |',
    ...load.kargoShards.map(k => `| ${k.shard === '' ? '(default)' : mdText(k.shard)} | ${k.stages} | ${k.warehouses} | ${k.templateReferences} |`),
    '', `AnalysisTemplates: ${load.analysisTemplates.total} for ${load.analysisTemplates.stagesWithTemplates} Stages that reference them; `
      + `${load.analysisTemplates.sameButDelay} are the same as another template of their namespace but for the name, the labels and the metrics' initialDelay.`);
  if (load.hosts.length > 0) {
    lines.push('', '### Registries and Git hosts (polling, steady state)', '',
      '| host | kind | Warehouses | subscriptions | polls/h | listings/h | manifest GETs/h (at most) | share of Kargo\'s per-registry limit |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...load.hosts.map(h => {
        const share = h.kind === 'registry' ? `${percent((h.listingsPerHour + h.manifestGetsPerHour) / REGISTRY_LIMIT_PER_HOUR)}` : '';
        return `| ${mdCode(h.host)} | ${h.kind} | ${h.warehouses} | ${h.subscriptions} | ${h.pollsPerHour} | ${h.listingsPerHour} `
          + `| ${h.manifestGetsPerHour}${h.unbounded ? '+' : ''} | ${share} |`;
      }));
  }
  if (load.releaseRepos.length > 0) {
    lines.push('', '### Release repositories', '', '| repository | branches | Stages that commit | commits per release | pull requests per release |',
      '| --- | ---: | ---: | ---: | ---: |',
      ...load.releaseRepos.map(r => `| ${mdCode(r.repoURL)} | ${r.branches} | ${r.stages} | ${r.commitsPerRelease} | ${r.pullRequestsPerRelease} |`));
  }
  return lines;
}

function percent(fraction: number): string {
  const p = fraction * 100;
  return `${p < 10 ? p.toFixed(1) : Math.round(p)}%`;
}
