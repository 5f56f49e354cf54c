import * as fc from 'fast-check';
import { expect, test } from 'vitest';
import { mdCode, mdText, mermaidText } from '../../src/util/markdown';

test('mdText, mdCode and mermaidText: no user text ends a cell, a code span, a label or opens HTML', () => {
  expect(mdText('a|b\nc `d` <e> & f\\')).toBe('a\\|b c \\`d\\` &lt;e&gt; &amp; f\\\\');
  expect(mdCode('plain')).toBe('`plain`');
  expect(mdCode('a`b')).toBe('``a`b``');
  expect(mdCode('`x`|y')).toBe('`` `x`\\|y ``');
  expect(mermaidText('say "hi" <b>|#1\nnext')).toBe('say #quot;hi#quot; #lt;b#gt;#124;#35;1 next');
});

test('text with nothing to escape comes back as it is; each special character alone is escaped', () => {
  fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...'ab-_.:/ 0*~é日#"') }), text => {
    expect(mdText(text)).toBe(text);
  }));
  fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...'ab-_.:/ 0*~é日&') }), text => {
    expect(mermaidText(text)).toBe(text);
  }));
  for (const [special, escaped] of [['\r', ' '], ['\n', ' '], ['&', '&amp;'], ['<', '&lt;'], ['>', '&gt;'], ['\\', '\\\\'], ['|', '\\|'], ['`', '\\`']]) {
    expect(mdText(`x${special}y`), special).toBe(`x${escaped}y`);
  }
  for (const [special, escaped] of [['#', '#35;'], ['"', '#quot;'], ['<', '#lt;'], ['>', '#gt;'], ['|', '#124;'], ['`', '#96;'], ['\r', ' '], ['\n', ' ']]) {
    expect(mermaidText(`x${special}y`), special).toBe(`x${escaped}y`);
  }
});
