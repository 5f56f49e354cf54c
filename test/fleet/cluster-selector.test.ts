import { describe, expect, test } from 'vitest';
import { Accelerator, ClusterSelector, PlatformLabels, SelectorOperator, Tier } from '../../src';
import { HostLanguage } from '../../src/util/host-language';

// Kubernetes label selector semantics (k8s.io/apimachinery/pkg/labels): requirements are ANDed;
// NotIn and DoesNotExist match objects without the label; an empty selector matches everything.
describe('ClusterSelector', () => {
  const labels = { tier: 'prod', ring: 'canary', gpu: 'true' };

  test('an empty selector matches every cluster', () => {
    expect(ClusterSelector.all().matches({})).toBe(true);
    expect(ClusterSelector.all().matches(labels)).toBe(true);
  });

  test.each([
    ['matchLabels hit', ClusterSelector.matchLabels({ tier: 'prod' }), true],
    ['matchLabels miss', ClusterSelector.matchLabels({ tier: 'dev' }), false],
    ['matchLabels on a missing key', ClusterSelector.matchLabels({ zone: 'a' }), false],
    ['In hit', ClusterSelector.expression('ring', SelectorOperator.IN, ['canary', 'early']), true],
    ['In miss', ClusterSelector.expression('ring', SelectorOperator.IN, ['broad']), false],
    ['In on a missing key', ClusterSelector.expression('zone', SelectorOperator.IN, ['a']), false],
    ['NotIn hit', ClusterSelector.expression('ring', SelectorOperator.NOT_IN, ['broad']), true],
    ['NotIn miss', ClusterSelector.expression('ring', SelectorOperator.NOT_IN, ['canary']), false],
    ['NotIn on a missing key matches', ClusterSelector.expression('zone', SelectorOperator.NOT_IN, ['a']), true],
    ['Exists hit', ClusterSelector.expression('gpu', SelectorOperator.EXISTS), true],
    ['Exists miss', ClusterSelector.expression('zone', SelectorOperator.EXISTS), false],
    ['DoesNotExist hit', ClusterSelector.expression('zone', SelectorOperator.DOES_NOT_EXIST), true],
    ['DoesNotExist miss', ClusterSelector.expression('gpu', SelectorOperator.DOES_NOT_EXIST), false],
    ['label values are compared exactly', ClusterSelector.matchLabels({ tier: 'Prod' }), false],
  ])('%s', (_, selector, expected) => {
    expect(selector.matches(labels)).toBe(expected);
  });

  test('and() requires both selectors', () => {
    const s = ClusterSelector.matchLabels({ tier: 'prod' }).and(ClusterSelector.expression('ring', SelectorOperator.IN, ['canary']));
    expect(s.matches(labels)).toBe(true);
    expect(s.matches({ ...labels, ring: 'broad' })).toBe(false);
  });

  test('and() of contradicting matchLabels matches nothing', () => {
    const s = ClusterSelector.matchLabels({ tier: 'prod' }).and(ClusterSelector.matchLabels({ tier: 'dev' }));
    expect(s.matches({ tier: 'prod' })).toBe(false);
    expect(s.matches({ tier: 'dev' })).toBe(false);
  });

  test('attribute selectors use the platform labels', () => {
    expect(ClusterSelector.tier(Tier.PROD, Tier.STAGING).toLabelSelector()).toEqual({
      matchLabels: undefined,
      matchExpressions: [{ key: PlatformLabels.TIER, operator: 'In', values: ['prod', 'staging'] }],
    });
    expect(ClusterSelector.accelerator(Accelerator.NVIDIA_H100).matches({ [PlatformLabels.ACCELERATOR]: 'nvidia-h100' })).toBe(true);
  });

  test('renders kubectl syntax for messages', () => {
    const s = ClusterSelector.matchLabels({ tier: 'prod' })
      .and(ClusterSelector.expression('ring', SelectorOperator.NOT_IN, ['a', 'b']))
      .and(ClusterSelector.expression('gpu', SelectorOperator.EXISTS))
      .and(ClusterSelector.expression('legacy', SelectorOperator.DOES_NOT_EXIST));
    expect(s.toString()).toBe('tier=prod,ring notin (a,b),gpu,!legacy');
    expect(ClusterSelector.all().toString()).toBe('<all clusters>');
  });

  test.each([
    ['In without values', () => ClusterSelector.expression('ring', SelectorOperator.IN, []), /needs at least one value/],
    ['NotIn without values', () => ClusterSelector.expression('ring', SelectorOperator.NOT_IN), /needs at least one value/],
    ['Exists with values', () => ClusterSelector.expression('ring', SelectorOperator.EXISTS, ['x']), /must not have values/],
    ['DoesNotExist with values', () => ClusterSelector.expression('ring', SelectorOperator.DOES_NOT_EXIST, ['x']), /must not have values/],
    ['an invalid key', () => ClusterSelector.matchLabels({ 'bad key': 'x' }), /selector key name part/],
    ['an invalid key prefix', () => ClusterSelector.matchLabels({ 'Bad_Prefix/key': 'x' }), /selector key prefix/],
    ['a value over 63 characters', () => ClusterSelector.matchLabels({ k: 'x'.repeat(64) }), /at most 63 characters/],
    ['a value with a space', () => ClusterSelector.expression('k', SelectorOperator.IN, ['a b']), /must be empty or consist of alphanumerics/],
    ['an unknown operator', () => ClusterSelector.expression('k', 'Gt' as SelectorOperator, ['1']), /selector operator for key "k" is not a selector operator, got "Gt"; use one of In, NotIn, Exists, DoesNotExist/],
    ['tier() without tiers', () => ClusterSelector.tier(), /needs at least one value/],
  ])('fails if %s', (_, make, message) => {
    const problems = make()._problems;
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toMatch(message);
  });

  test.each([
    [HostLanguage.TYPESCRIPT, 'ClusterSelector.tier()', 'Accelerator.custom("nvidia-b20")'],
    [HostLanguage.PYTHON, 'ClusterSelector.tier()', 'Accelerator.custom("nvidia-b20")'],
    [HostLanguage.JAVA, 'ClusterSelector.tier()', 'Accelerator.custom("nvidia-b20")'],
    [HostLanguage.GO, 'ClusterSelector_Tier()', 'Accelerator_Custom(jsii.String("nvidia-b20"))'],
    [HostLanguage.DOTNET, 'ClusterSelector.Tier()', 'Accelerator.Custom("nvidia-b20")'],
  ])('fails if a factory gets no value or an unknown family, naming the calls in %s', (language, tier, custom) => {
    expect(HostLanguage.using(language, () => ClusterSelector.tier()._problems)).toEqual([`${tier} needs at least one value, got none`]);
    expect(HostLanguage.using(language, () => ClusterSelector.accelerator(Accelerator.of('nvidia-b20'))._problems)).toEqual([
      `accelerator name is not a known accelerator family, got "nvidia-b20"; did you mean "nvidia-h200"? (to add a family, declare it with ${custom})`,
    ]);
  });
});
