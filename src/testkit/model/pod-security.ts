import { ControllerFinding, finding } from './controller-finding';

/**
 * Pod Security admission at level `restricted` (Kubernetes Pod Security Standards,
 * https://kubernetes.io/docs/concepts/security/pod-security-standards/), run on every pod
 * template of the output: the job metrics of AnalysisTemplates (Argo Rollouts creates their Jobs
 * in the AnalysisRun's namespace, for Kargo the project namespace on the hub) and the pod
 * templates of workload objects. A namespace labelled `pod-security.kubernetes.io/enforce:
 * restricted` refuses the pod of a template that fails a check, so the Job never runs and the
 * measurement errors. Each check follows k8s.io/pod-security-admission v0.34.9 `policy/` (check
 * ids as there; Linux pods; user-namespace relaxation not modelled):
 *
 * | check id | rule |
 * | --- | --- |
 * | `privileged` | no container sets `privileged: true` |
 * | `hostNamespaces` | no `hostNetwork`, `hostPID`, `hostIPC` |
 * | `hostPorts` | no container port sets `hostPort` |
 * | `restrictedVolumes` | volumes only of the types configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected, secret |
 * | `allowPrivilegeEscalation` | every container sets `allowPrivilegeEscalation: false` |
 * | `runAsNonRoot` | the pod or every container sets `runAsNonRoot: true`, and none sets it false |
 * | `runAsUser` | neither the pod nor a container sets `runAsUser: 0` |
 * | `seccompProfile_restricted` | the pod or every container sets seccompProfile `RuntimeDefault` or `Localhost`, none another type |
 * | `capabilities_restricted` | every container drops `ALL` and adds nothing but `NET_BIND_SERVICE` |
 */
export function checkPodSecurity(objects: any[]): ControllerFinding[] {
  const out: ControllerFinding[] = [];
  for (const obj of objects) {
    for (const [path, podSpec] of podTemplates(obj)) {
      for (const [check, detail] of restrictedViolations(podSpec)) {
        out.push(finding(obj, path, 'pod-security-restricted',
          `the pod template violates Pod Security "restricted" (${check}): ${detail}; a namespace enforcing restricted refuses the pod`));
      }
    }
  }
  return out;
}

const WORKLOADS = ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'ReplicationController'];

/** Every pod spec an object carries, with its JSON pointer. */
function podTemplates(obj: any): Array<[string, any]> {
  const kind = obj?.kind;
  if (kind === 'AnalysisTemplate' || kind === 'ClusterAnalysisTemplate') {
    const metrics: any[] = Array.isArray(obj.spec?.metrics) ? obj.spec.metrics : [];
    return metrics.flatMap((m, i): Array<[string, any]> => m?.provider?.job
      ? [[`/spec/metrics/${i}/provider/job/spec/template/spec`, m.provider.job.spec?.template?.spec ?? {}]] : []);
  }
  if (kind === 'Pod') return [['/spec', obj.spec ?? {}]];
  if (WORKLOADS.includes(kind)) return [['/spec/template/spec', obj.spec?.template?.spec ?? {}]];
  if (kind === 'CronJob') return [['/spec/jobTemplate/spec/template/spec', obj.spec?.jobTemplate?.spec?.template?.spec ?? {}]];
  return [];
}

const ALLOWED_VOLUMES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];
const SECCOMP_TYPES = ['RuntimeDefault', 'Localhost'];

/** The checks a pod spec fails, with what the admission message would say. */
export function restrictedViolations(spec: any): Array<[string, string]> {
  const containers: any[] = ['initContainers', 'containers', 'ephemeralContainers']
    .flatMap((field) => (Array.isArray(spec?.[field]) ? spec[field] : []));
  const pod = spec?.securityContext ?? {};
  const sc = (c: any) => c?.securityContext ?? {};
  const names = (list: any[]) => list.map((c) => JSON.stringify(String(c?.name ?? ''))).join(', ');
  const violations: Array<[string, string]> = [];
  const add = (check: string, bad: any[], detail: string) => {
    if (bad.length > 0) violations.push([check, `container(s) ${names(bad)} ${detail}`]);
  };
  add('privileged', containers.filter((c) => sc(c).privileged === true), 'must not set securityContext.privileged=true');
  const hostNs = ['hostNetwork', 'hostPID', 'hostIPC'].filter((f) => spec?.[f] === true);
  if (hostNs.length > 0) violations.push(['hostNamespaces', `the pod must not set ${hostNs.map((f) => `${f}=true`).join(', ')}`]);
  add('hostPorts', containers.filter((c) => (c?.ports ?? []).some((p: any) => p?.hostPort !== undefined && p.hostPort !== 0)), 'must not set hostPort');
  const badVolumes = (spec?.volumes ?? []).filter((v: any) => !Object.keys(v ?? {}).some((k) => ALLOWED_VOLUMES.includes(k)));
  if (badVolumes.length > 0) {
    violations.push(['restrictedVolumes', `volume(s) ${badVolumes.map((v: any) => JSON.stringify(v?.name)).join(', ')} must use only ${ALLOWED_VOLUMES.join(', ')}`]);
  }
  add('allowPrivilegeEscalation', containers.filter((c) => sc(c).allowPrivilegeEscalation !== false), 'must set securityContext.allowPrivilegeEscalation=false');
  const podNonRoot = pod.runAsNonRoot === true;
  if (pod.runAsNonRoot === false) violations.push(['runAsNonRoot', 'the pod must not set securityContext.runAsNonRoot=false']);
  add('runAsNonRoot', containers.filter((c) => sc(c).runAsNonRoot === false || (sc(c).runAsNonRoot === undefined && !podNonRoot)),
    'must set securityContext.runAsNonRoot=true (on the pod or each container)');
  if (pod.runAsUser === 0) violations.push(['runAsUser', 'the pod must not set runAsUser=0']);
  add('runAsUser', containers.filter((c) => sc(c).runAsUser === 0), 'must not set runAsUser=0');
  const podSeccomp = pod.seccompProfile?.type;
  if (podSeccomp !== undefined && !SECCOMP_TYPES.includes(podSeccomp)) {
    violations.push(['seccompProfile_restricted', `the pod must not set securityContext.seccompProfile.type=${JSON.stringify(podSeccomp)}`]);
  }
  const podSeccompSet = podSeccomp !== undefined && SECCOMP_TYPES.includes(podSeccomp);
  add('seccompProfile_restricted', containers.filter((c) => {
    const type = sc(c).seccompProfile?.type;
    return type === undefined ? !podSeccompSet : !SECCOMP_TYPES.includes(type);
  }), 'must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost" (on the pod or each container)');
  add('capabilities_restricted', containers.filter((c) => !(sc(c).capabilities?.drop ?? []).includes('ALL')),
    'must set securityContext.capabilities.drop=["ALL"]');
  add('capabilities_restricted', containers.filter((c) => (sc(c).capabilities?.add ?? []).some((a: string) => a !== 'NET_BIND_SERVICE')),
    'must not add capabilities other than NET_BIND_SERVICE');
  return violations;
}
