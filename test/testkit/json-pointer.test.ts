import { describe, expect, test } from 'vitest';
import { comparePointers, escapePointerSegment, joinPointer, valueAtPointer } from '../../src/testkit/json-pointer';

describe('JSON pointers (RFC 6901)', () => {
  test('segments escape ~ and /, and read back to the value they point at', () => {
    const obj = { metadata: { annotations: { 'kargo.akuity.io/authorized-stage': 'p:s', 'a~b': 1 } }, spec: { steps: [{ as: 'clone' }] } };
    const pointer = joinPointer('/metadata', 'annotations', 'kargo.akuity.io/authorized-stage');
    expect(pointer).toBe('/metadata/annotations/kargo.akuity.io~1authorized-stage');
    expect(valueAtPointer(obj, pointer)).toBe('p:s');
    expect(valueAtPointer(obj, `/metadata/annotations/${escapePointerSegment('a~b')}`)).toBe(1);
    expect(valueAtPointer(obj, joinPointer('', 'spec', 'steps', 0, 'as'))).toBe('clone');
    expect([valueAtPointer(obj, ''), valueAtPointer(obj, '/spec/steps/0/as/x')]).toEqual([obj, undefined]);
  });

  test('pointers order segment by segment, list indexes as numbers, a parent before its children', () => {
    expect(['/spec/steps/10', '/spec/steps/9/as', '/metadata', '/spec/steps/9', '/spec'].sort(comparePointers))
      .toEqual(['/metadata', '/spec', '/spec/steps/9', '/spec/steps/9/as', '/spec/steps/10']);
  });
});
