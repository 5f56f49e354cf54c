import { describe, expect, test } from 'vitest';
import { simulateControllers } from '../../../src/testkit';
import { restrictedViolations } from '../../../src/testkit/model/pod-security';

/** The JSON guard's pod template as the library emitted it before (cdk8s-plus-28 defaults only). */
const TODAYS_GUARD = {
  containers: [{
    name: 'check',
    image: 'docker.io/library/node:22-alpine',
    securityContext: { allowPrivilegeEscalation: false, privileged: false, readOnlyRootFilesystem: true, runAsNonRoot: true, runAsUser: 65532 },
    volumeMounts: [{ mountPath: '/tmp', name: 'tmp' }],
  }],
  securityContext: { fsGroupChangePolicy: 'Always', runAsNonRoot: true, runAsUser: 65532 },
  volumes: [{ emptyDir: {}, name: 'tmp' }],
};

describe('Pod Security restricted (test kit)', () => {
  test('fails if a pod drops no capabilities and sets no seccomp profile: today\'s JSON guard', () => {
    expect(restrictedViolations(TODAYS_GUARD)).toEqual([
      ['seccompProfile_restricted', 'container(s) "check" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost" (on the pod or each container)'],
      ['capabilities_restricted', 'container(s) "check" must set securityContext.capabilities.drop=["ALL"]'],
    ]);
    const template = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'AnalysisTemplate',
      metadata: { name: 't', namespace: 'gateway' },
      spec: { metrics: [{ name: 'm', provider: { job: { spec: { template: { spec: TODAYS_GUARD } } } } }] },
    };
    expect(simulateControllers([template]).filter(f => f.code === 'pod-security-restricted').map(f => f.path))
      .toEqual(['/spec/metrics/0/provider/job/spec/template/spec', '/spec/metrics/0/provider/job/spec/template/spec']);
  });

  test.each([
    ['privileged', { containers: [{ name: 'c', securityContext: { privileged: true } }] }],
    ['hostNamespaces', { hostNetwork: true, containers: [] }],
    ['hostPorts', { containers: [{ name: 'c', ports: [{ containerPort: 80, hostPort: 80 }] }] }],
    ['restrictedVolumes', { volumes: [{ name: 'h', hostPath: { path: '/' } }], containers: [] }],
    ['runAsUser', { securityContext: { runAsUser: 0 }, containers: [] }],
    ['runAsNonRoot', { securityContext: { runAsNonRoot: false }, containers: [] }],
    ['seccompProfile_restricted', { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [] }],
  ])('fails if the pod breaks %s', (check, spec) => {
    expect(restrictedViolations(spec).map(([id]) => id)).toContain(check);
  });

  test('a pod-level seccomp profile and runAsNonRoot cover every container; NET_BIND_SERVICE may be added', () => {
    const sc = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } };
    expect(restrictedViolations({ securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }, containers: [{ name: 'c', securityContext: sc }] }))
      .toEqual([]);
  });
});
