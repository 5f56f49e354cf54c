import { expect, test } from 'vitest';
import { mdCode, mdText, mermaidText } from '../../src/util/markdown';

test('mdText, mdCode and mermaidText: no user text ends a cell, a code span, a label or opens HTML', () => {
  expect(mdText('a|b\nc `d` <e> & f\\')).toBe('a\\|b c \\`d\\` &lt;e&gt; &amp; f\\\\');
  expect(mdCode('plain')).toBe('`plain`');
  expect(mdCode('a`b')).toBe('``a`b``');
  expect(mdCode('`x`|y')).toBe('`` `x`\\|y ``');
  expect(mermaidText('say "hi" <b>|#1\nnext')).toBe('say #quot;hi#quot; #lt;b#gt;#124;#35;1 next');
});
