import { describe, expect, test } from 'vitest';
import { find, synthApp } from '../support/fixtures';

describe('definePromoterRbac', () => {
  test('gated stages get Kargo RBAC: the owner groups may promote into exactly that stage\'s Kargo Stages', () => {
    const { objects } = synthApp(() => ({ owner: { team: 'payments', contact: '#payments', groups: ['payments-leads', 'sre'] } }));
    expect(find(objects, 'ServiceAccount', 'promoter-prod').metadata.annotations).toEqual({
      'rbac.kargo.akuity.io/claims': '{"groups":["payments-leads","sre"]}',
    });
    const promote = find(objects, 'Role', 'promoter-prod').rules.filter((r: any) => r.verbs.includes('promote'));
    expect(promote).toEqual([
      { apiGroups: ['kargo.akuity.io'], resources: ['stages'], resourceNames: ['prod-canary'], verbs: ['promote'] },
      { apiGroups: ['kargo.akuity.io'], resources: ['stages'], resourceNames: ['prod-broad'], verbs: ['promote'] },
    ]);
    // promoters see the verification they wait on (the AnalysisRuns Kargo starts)
    expect(find(objects, 'Role', 'promoter-prod').rules).toContainEqual({ apiGroups: ['argoproj.io'], resources: ['analysisruns'], verbs: ['get', 'list', 'watch'] });
    expect(find(objects, 'RoleBinding', 'promoter-prod')).toMatchObject({
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'promoter-prod' },
      subjects: [{ kind: 'ServiceAccount', name: 'promoter-prod', namespace: 'api' }],
    });
    // automatic stages need no promoters
    expect(objects.filter(o => o.kind === 'Role').map(o => o.metadata.name)).toEqual(['promoter-prod']);
  });
});
