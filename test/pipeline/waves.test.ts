import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { ClusterSelector, PromotionPipeline, WaveStrategy, Waves } from '../../src';

describe('Waves', () => {
  test('each factory records its strategy and the number of waves it asks for at most', () => {
    expect([Waves.single(), Waves.byLabel('ring', ['canary', 'broad']), Waves.byCount(3), Waves.byPercentage([10, 50, 100])]
      .map(w => [w.strategy, w.count, w._problems])).toEqual([
      [WaveStrategy.SINGLE, 1, []], [WaveStrategy.BY_LABEL, 2, []], [WaveStrategy.BY_COUNT, 3, []], [WaveStrategy.BY_PERCENTAGE, 3, []],
    ]);
    expect(Waves.byLabel('ring', ['canary', 'broad'])).toMatchObject({ labelKey: 'ring', labelValues: ['canary', 'broad'] });
  });

  test('a factory given bad input records why and falls back to one wave, so the plan can go on and report it', () => {
    expect(Waves.byCount(2.5)).toMatchObject({ count: 1, _problems: ['Waves.byCount() needs a whole number >= 1, got 2.5'] });
    expect(Waves.byPercentage([50, 120])).toMatchObject({ count: 1, percentages: [100] });
    expect(Waves.byPercentage([])._problems).toEqual(['Waves.byPercentage() must end at 100, got []; add 100 as the last wave']);
    expect(Waves.byLabel('ring', [])._problems).toEqual(['Waves.byLabel("ring") needs at least one value, got []']);
  });

  test('fails if waves are invalid', () => {
    expect(() => new PromotionPipeline(Testing.app(), 'p', {
      stages: [{ name: 'prod', clusters: ClusterSelector.all(), waves: Waves.byPercentage([50, 20]) }],
    })).toThrow(/stage "prod" waves: Waves.byPercentage\(\) needs increasing percentages in \(0, 100\], got \[50,20\]/);
    expect(() => new PromotionPipeline(Testing.app(), 'p', {
      stages: [{ name: 'prod', clusters: ClusterSelector.all(), waves: Waves.byPercentage([10, 50]) }],
    })).toThrow(/must end at 100/);
    expect(() => new PromotionPipeline(Testing.app(), 'p', {
      stages: [{ name: 'prod', clusters: ClusterSelector.all(), waves: Waves.byLabel('ring', ['a', 'a']) }],
    })).toThrow(/Waves.byLabel\("ring"\) values must be unique, but name "a" twice, got \["a","a"\]/);
  });
});
