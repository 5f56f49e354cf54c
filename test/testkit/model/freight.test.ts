import { describe, expect, test } from 'vitest';
import { evaluateExpression } from '../../../src/testkit/model/expr';
import { SimulatedFreight, warehouseArtifacts } from '../../../src/testkit/model/freight';

const warehouse = {
  metadata: { name: 'api' },
  spec: {
    subscriptions: [
      { image: { repoURL: 'ghcr.io/acme/api' } },
      { chart: { repoURL: 'https://charts.example.com', name: 'redis' } },
      { git: { repoURL: 'https://github.com/acme/api.git', branch: 'main' } },
    ],
  },
};

describe('SimulatedFreight', () => {
  test('one version of every subscribed artifact, read with the functions Kargo gives expressions', () => {
    expect(warehouseArtifacts(warehouse).map(a => a.kind)).toEqual(['image', 'chart', 'git']);
    const freight = SimulatedFreight.of(warehouse, 2);
    const read = (src: string) => evaluateExpression(src, {}, freight.functions());
    expect(read("imageFrom('ghcr.io/acme/api').Tag")).toBe('1.2.0');
    expect(read("chartFrom('https://charts.example.com', 'redis').Version")).toBe('4.2.0');
    // a Git URL matches as Kargo normalizes it
    expect(read("commitFrom('https://github.com/Acme/api').Branch")).toBe('main');
    expect(() => read("imageFrom('ghcr.io/acme/other').Tag")).toThrow('image ghcr.io/acme/other not found in referenced Freight');
  });

  test('a generation per artifact: new Freight, the same again, older Freight, or one artifact moved', () => {
    const [older, newer, again] = [SimulatedFreight.of(warehouse, 1), SimulatedFreight.of(warehouse, 2), SimulatedFreight.of(warehouse, 2)];
    expect(newer.name).toBe(again.name);
    expect(older.name).not.toBe(newer.name);
    const imageMoved = SimulatedFreight.of(warehouse, 1, { 'image:ghcr.io/acme/api': 2 });
    expect(evaluateExpression("imageFrom('ghcr.io/acme/api').Tag", {}, imageMoved.functions())).toBe('1.2.0');
    expect(evaluateExpression("chartFrom('https://charts.example.com', 'redis').Version", {}, imageMoved.functions())).toBe('4.1.0');
  });
});
