import { describe as group, expect, test } from 'vitest';
import { call, constant, enumMember, ETC, field, hint, idiom, json, list, memberCall, newObject, num, placeholder, prop, shorthand, str, struct } from '../../src/util/code-hint';
import { describe } from '../../src/util/errors';
import { HostLanguage } from '../../src/util/host-language';

const { TYPESCRIPT, PYTHON, JAVA, GO, DOTNET } = HostLanguage;
const LANGUAGES = [TYPESCRIPT, PYTHON, JAVA, GO, DOTNET];
/** What `spell` writes in each language, in the order of LANGUAGES. */
const inEach = (code: { spell(l: HostLanguage): string }) => LANGUAGES.map(l => code.spell(l));

group('code in hints, as each language writes it', () => {
  test('a static call whose last argument is a struct: Python passes it as keyword arguments', () => {
    const eks = call('ClusterAuth', 'eks', struct('EksAuthOptions', { clusterName: placeholder('EKS cluster name') }),
      struct('ClusterTlsOptions', { caData: str('LS0t') }));
    expect(inEach(eks)).toEqual([
      "ClusterAuth.eks({ clusterName: '<EKS cluster name>' }, { caData: 'LS0t' })",
      'ClusterAuth.eks(EksAuthOptions(cluster_name="<EKS cluster name>"), ca_data="LS0t")',
      'ClusterAuth.eks(EksAuthOptions.builder().clusterName("<EKS cluster name>").build(), ClusterTlsOptions.builder().caData("LS0t").build())',
      'ClusterAuth_Eks(&EksAuthOptions{ClusterName: jsii.String("<EKS cluster name>")}, &ClusterTlsOptions{CaData: jsii.String("LS0t")})',
      'ClusterAuth.Eks(new EksAuthOptions { ClusterName = "<EKS cluster name>" }, new ClusterTlsOptions { CaData = "LS0t" })',
    ]);
  });

  test('a method call with one struct, as the brief for FreezeOverride.of() names it', () => {
    expect(inEach(call('FreezeOverride', 'of', struct('FreezeOverrideProps', { by: str('alice'), reason: str('CVE') })))).toEqual([
      "FreezeOverride.of({ by: 'alice', reason: 'CVE' })",
      'FreezeOverride.of(by="alice", reason="CVE")',
      'FreezeOverride.of(FreezeOverrideProps.builder().by("alice").reason("CVE").build())',
      'FreezeOverride_Of(&FreezeOverrideProps{By: jsii.String("alice"), Reason: jsii.String("CVE")})',
      'FreezeOverride.Of(new FreezeOverrideProps { By = "alice", Reason = "CVE" })',
    ]);
  });

  test('empty structs, lists, numbers, constants, snake_case methods and shorthand', () => {
    expect(inEach(call('ClusterAuth', 'aks', struct('AksAuthOptions'), struct('ClusterTlsOptions', { caData: ETC })))).toEqual([
      'ClusterAuth.aks({}, { caData: ... })',
      'ClusterAuth.aks(AksAuthOptions(), ca_data=...)',
      'ClusterAuth.aks(AksAuthOptions.builder().build(), ClusterTlsOptions.builder().caData(...).build())',
      'ClusterAuth_Aks(&AksAuthOptions{}, &ClusterTlsOptions{CaData: ...})',
      'ClusterAuth.Aks(new AksAuthOptions(), new ClusterTlsOptions { CaData = ... })',
    ]);
    expect(inEach(list(str('a'), ETC))).toEqual(["['a', ...]", '["a", ...]', 'List.of("a", ...)', '&[]*string{jsii.String("a"), ...}', 'new [] { "a", ... }']);
    expect(inEach(call('Duration', 'days', num(14)))).toEqual(['Duration.days(14)', 'Duration.days(14)', 'Duration.days(14)', 'Duration_Days(jsii.Number(14))', 'Duration.Days(14)']);
    expect(inEach(constant('Tier', 'PROD'))).toEqual(['Tier.PROD', 'Tier.PROD', 'Tier.PROD', 'Tier_PROD()', 'Tier.PROD']);
    expect(inEach(call('VerificationArg', 'fromSecret'))).toEqual(['VerificationArg.fromSecret()', 'VerificationArg.from_secret()',
      'VerificationArg.fromSecret()', 'VerificationArg_FromSecret()', 'VerificationArg.FromSecret()']);
    expect(inEach(shorthand('ClusterTlsOptions', 'caData'))).toEqual(['{ caData }', 'ClusterTlsOptions(ca_data=...)',
      'ClusterTlsOptions.builder().caData(...).build()', '&ClusterTlsOptions{CaData: ...}', 'new ClusterTlsOptions { CaData = ... }']);
    expect(inEach(memberCall('addStage', str('prod')))).toEqual(["addStage('prod')", 'add_stage("prod")', 'addStage("prod")', 'AddStage(jsii.String("prod"))', 'AddStage("prod")']);
    expect(inEach(newObject('DeployFreeze', struct('DeployFreezeProps', { reason: str('x') })))).toEqual(["new DeployFreeze({ reason: 'x' })", 'DeployFreeze(reason="x")',
      'new DeployFreeze(DeployFreezeProps.builder().reason("x").build())', 'NewDeployFreeze(&DeployFreezeProps{Reason: jsii.String("x")})',
      'new DeployFreeze(new DeployFreezeProps { Reason = "x" })']);
    expect(inEach(json('ring'))).toEqual(['"ring"', '"ring"', '"ring"', 'jsii.String("ring")', '"ring"']);
    expect(inEach(enumMember('PushedRepositoryType', 'GIT'))).toEqual(['PushedRepositoryType.GIT', 'PushedRepositoryType.GIT', 'PushedRepositoryType.GIT',
      'PushedRepositoryType_GIT', 'PushedRepositoryType.GIT']);
    expect(inEach(idiom({ typescript: 'a', python: 'b', java: 'c', go: 'd', dotnet: 'e' }))).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  test('a TypeScript string literal escapes its quotes', () => {
    expect(str("it's").spell(TYPESCRIPT)).toBe("'it\\'s'");
    expect(str('say "hi"').spell(PYTHON)).toBe('"say \\"hi\\""');
  });
});

group('field names and hints in messages', () => {
  test('a field is prose and prop paths; each language spells the props', () => {
    const eksName = field('eks', prop('clusterName'));
    expect(inEach(eksName)).toEqual(['eks clusterName', 'eks cluster_name', 'eks clusterName', 'eks ClusterName', 'eks ClusterName']);
    expect(inEach(field(prop('auth'), prop('caData')))).toEqual(['auth caData', 'auth ca_data', 'auth caData', 'Auth CaData', 'Auth CaData']);
  });

  test('describe() spells its field and hint() its code in the language of the running program', () => {
    const message = () => describe(prop('kubernetesVersion'), undefined, 'is required',
      hint`set ${prop('kubernetesVersion')}, e.g. ${call('Tier', 'of', str('qa'))} (got ${'"x"'})`);
    expect(message()).toBe("kubernetesVersion is required, got nothing; set kubernetesVersion, e.g. Tier.of('qa') (got \"x\")");
    expect(HostLanguage.using(PYTHON, message)).toBe('kubernetes_version is required, got nothing; set kubernetes_version, e.g. Tier.of("qa") (got "x")');
    expect(HostLanguage.using(GO, message)).toBe('KubernetesVersion is required, got nothing; set KubernetesVersion, e.g. Tier_Of(jsii.String("qa")) (got "x")');
  });

  test('a field given as prose is kept as it is, in every language', () => {
    expect(HostLanguage.using(GO, () => describe('job user', 0, 'must be above 0'))).toBe('job user must be above 0, got 0');
  });
});
