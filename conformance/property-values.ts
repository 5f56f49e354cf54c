import { execFileSync } from 'child_process';
import * as path from 'path';
import { Duration } from 'cdk8s';
import fc from 'fast-check';
import { parseGoDuration, toGoDuration } from '../src/util/duration';
import { promqlType } from '../src/verification/promql-type';

/*
 * npx tsx conformance/property-values.ts
 *
 * The values the library still decides by hand, against the Go code that reads them. Every other
 * value a Go parser reads (cron schedules, time zones, regular expressions, SemVer constraints,
 * glob filters, Kargo and Rollouts expressions) is decided at synth time by the Go parsers
 * themselves (go/parsers, docs/go-parsers.md), so there is nothing to compare. What is left:
 *
 * - PromQL queries: Prometheus's promql/parser cannot be compiled into the Go parsers, so the
 *   library parses with Prometheus's lezer grammar and types the result by hand
 *   (src/verification/promql-type.ts); Go's parser must agree on every query the library
 *   accepts, and on its type (a scalar the library took for a vector breaks every measurement).
 * - durations: the library writes Go durations (toGoDuration) and the command line reads them
 *   from sync windows (parseGoDuration); time.ParseDuration must read the same length.
 *
 * The PromQL check is the grammar and the result type, not the rest of the Go parser's type
 * checks (promql/parser parse.go checkAST): a query Go refuses for one of KNOWN_PROMQL_GAPS is
 * counted and listed, not failed (docs/go-parsers.md says so); any other disagreement fails.
 *
 * Go's verdicts come from go/parsers/cmd/verdicts, run natively. Values are drawn with
 * fast-check, tricky ones first. Exit 1 when the library and Go disagree where it matters (the
 * library accepts what Go refuses, or reads another type or length), 0 when they do not, 2 when
 * the check cannot run. CONFORMANCE_VALUES=<n> draws n random values of each kind (default 300);
 * CONFORMANCE_SEED=<n>.
 */

const RUNS = Number(process.env.CONFORMANCE_VALUES ?? 300);
const SEED = Number(process.env.CONFORMANCE_SEED ?? 20261201);
const PARSERS = path.join(__dirname, '..', 'go', 'parsers');

/**
 * The checks of promql/parser the library's PromQL check does not make, by Go's message: function
 * argument types and counts, set operators and vector matching with scalars, comparisons between
 * scalars without bool, offset and @ placement, aggregations over range vectors, experimental
 * functions (which a server enables with --enable-feature=promql-experimental-functions).
 */
const KNOWN_PROMQL_GAPS = [/expected type .* in (call to function|aggregation expression)/, /expected \d+ argument\(s\) in call to/,
  /expected at (least|most) \d+ argument\(s\) in call to/, /set operator .* not allowed in binary scalar expression/, /vector matching only allowed between (series|instant vectors)/,
  /comparisons between scalars must use BOOL modifier/, /(offset|@) modifier must be preceded by/, /is not enabled|is experimental and must be enabled/,
  /bool modifier can only be used on comparison operators/, /ranges only allowed for vector selectors/, /subquery is only allowed on instant vector/];

interface Value { readonly kind: 'promql' | 'duration'; readonly value: string }
interface GoVerdict { readonly error?: string; readonly type?: string; readonly seconds?: number }

const TRICKY = {
  promql: ['up', 'scalar(up)', 'scalar(sum(rate(x[5m])))', 'time()', 'time() - 300', 'pi()', '1', '1 + 2', '-1', '"text"', 'vector(1)', 'vector(time())',
    'sum(rate(x[5m])) / sum(rate(y[5m]))', 'histogram_quantile(0.99, sum by (le) (rate(h_bucket[5m])))', 'x[5m]', 'rate(x[5m])[10m:1m]', 'up offset 5m', 'up @ 100',
    'up @ start()', '(up)', '-(up)', '2 * up', 'up > 0', 'up > bool 0', '1 > bool 2', '1 > 2', 'up and on(job) up', 'count_values("v", up)', 'topk(3, up)',
    'absent(up)', 'label_replace(up, "a", "$1", "b", "(.*)")', 'sort_desc(up)', 'up{job=~"a.*",env!="x"}', '{__name__="up"}', 'up{', 'sum(up', 'up +', '',
    'sum(x) by (le', 'rate(x)', 'rate(up[5m:1m])', 'Scalar(up)', 'SUM(up)', 'sum by (job) (up)', 'sum(up) without (job)', 'quantile(0.9, up)',
    'limitk(2, up)', 'info(up)', 'double_exponential_smoothing(x[5m], 0.5, 0.5)', '{cluster="x"}', 'up{cluster="x",ns="0"}', '0x1F', '1e3', 'Inf', 'NaN',
    'up[5m] offset 1h', 'max_over_time(up[1h:5m])', 'year()', 'minute(up)', 'abs(-1)', 'ln(2)', 'round(up, 0.5)', 'clamp(up, 0, 1)', '1 + scalar(up)',
    'scalar(up) * 2', 'up / on() group_left scalar(up)', '# comment\nup'],
  duration: ['1h30m', '90m', '1.5h', '0', '0s', '-1h', '+1h', '1d', '1w', '1h 30m', '.5h', '1.h', '300ms', '1us', '1µs', '1μs', '1ns', '2562047h', '2562048h',
    '9999999999h', 'h', '1H', '1m30', '1e3s', '', ' 1h', '1h0m0s', '0.000000001s', '1.5.5h', '30m1h'],
};

function joinOf(parts: fc.Arbitrary<string>, separators: string[], max: number): fc.Arbitrary<string> {
  return fc.array(fc.tuple(parts, fc.constantFrom(...separators)), { minLength: 1, maxLength: max })
    .map((xs) => xs.map(([p, s], i) => (i === xs.length - 1 ? p : p + s)).join(''));
}

const selector = fc.tuple(fc.constantFrom('up', 'http_requests_total', 'x'), fc.constantFrom('', '{job="a"}', '{code=~"5.."}', '{'))
  .map(([m, l]) => m + l);
const operand: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: selector },
  fc.constantFrom('1', '0.5', 'time()', 'pi()', '"s"'),
  fc.tuple(fc.constantFrom('rate', 'sum', 'scalar', 'vector', 'abs', 'avg_over_time', 'histogram_quantile'), selector, fc.constantFrom('', '[5m]', '[5m:1m]'))
    .map(([f, s, r]) => `${f}(${s}${r})`),
  fc.tuple(fc.constantFrom('sum', 'max', 'count'), fc.constantFrom('', ' by (job)', ' without (le)'), selector).map(([a, b, s]) => `${a}${b}(${s})`),
);
const ARBITRARIES: Record<Value['kind'], fc.Arbitrary<string>> = {
  promql: fc.oneof(
    { weight: 4, arbitrary: joinOf(operand, [' + ', ' / ', ' > ', ' > bool ', ' and ', ' or on(job) ', ' * '], 3) },
    fc.tuple(fc.constantFrom('scalar(', '(', '-', 'vector('), operand, fc.constantFrom(')', '', ') offset 5m', ')[10m:1m]')).map(([a, b, c]) => a + b + c),
    fc.constantFrom(...TRICKY.promql),
  ),
  duration: fc.oneof(
    joinOf(fc.tuple(fc.constantFrom('0', '1', '15', '90', '1.5', '.5', '2562047', '99999999999'), fc.constantFrom('h', 'm', 's', 'ms', 'us', 'µs', 'ns', 'd', ''))
      .map(([n, u]) => n + u), [''], 3),
    fc.constantFrom(...TRICKY.duration),
  ),
};

function draw(): Value[] {
  const values: Value[] = [];
  for (const kind of Object.keys(ARBITRARIES) as Value['kind'][]) {
    const drawn = [...TRICKY[kind], ...fc.sample(ARBITRARIES[kind], { numRuns: RUNS, seed: SEED })];
    for (const value of [...new Set(drawn)]) values.push({ kind, value });
  }
  // durations the library writes (soaks, intervals, freezes): whole seconds up to 400 days
  for (const seconds of fc.sample(fc.integer({ min: 1, max: 400 * 24 * 3600 }), { numRuns: RUNS, seed: SEED })) {
    values.push({ kind: 'duration', value: toGoDuration(Duration.seconds(seconds)) });
  }
  return values;
}

function goVerdicts(values: Value[]): GoVerdict[] {
  try {
    const out = execFileSync('go', ['run', './cmd/verdicts'], {
      cwd: PARSERS,
      input: JSON.stringify(values),
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, GOFLAGS: [process.env.GOFLAGS, '-mod=readonly', '-modcacherw'].filter(Boolean).join(' ') },
    });
    return JSON.parse(out.toString('utf8')) as GoVerdict[];
  } catch (e) {
    throw new Error(`go/parsers/cmd/verdicts did not run (${(e as Error).message.split('\n')[0]}); it needs Go and the Go module proxy`);
  }
}

/** The library's verdict on a value, and how it differs from Go's where that breaks live. */
function disagreement(v: Value, go: GoVerdict): { live?: string; gap?: string; stricter?: boolean } {
  if (v.kind === 'promql') {
    const lib = promqlType(v.value);
    if (lib.error === undefined && go.error !== undefined) {
      const refusal = `the library accepts it (a ${lib.type}) and Go refuses it: ${go.error}`;
      return KNOWN_PROMQL_GAPS.some(re => re.test(go.error!)) ? { gap: refusal } : { live: refusal };
    }
    if (lib.error !== undefined && go.error === undefined) return { stricter: true };
    if (lib.type !== undefined && lib.type !== go.type) return { live: `the library takes it for a ${lib.type}, Go for a ${go.type}` };
    return {};
  }
  let seconds: number | undefined;
  try {
    seconds = parseGoDuration(v.value) / 1000;
  } catch {
    seconds = undefined;
  }
  if (seconds !== undefined && go.error !== undefined) return { live: `the library reads ${seconds}s and Go refuses it: ${go.error}` };
  if (seconds === undefined && go.error === undefined) return { stricter: true };
  if (seconds !== undefined && go.seconds !== undefined && Math.abs(seconds - go.seconds) > 1e-6 * Math.max(1, go.seconds)) {
    return { live: `the library reads ${seconds}s, Go ${go.seconds}s` };
  }
  return {};
}

function main(): number {
  const started = Date.now();
  try {
    const values = draw();
    const verdicts = goVerdicts(values);
    if (verdicts.length !== values.length) throw new Error(`go/parsers/cmd/verdicts answered ${verdicts.length} of ${values.length} values`);
    let live = 0;
    const gaps: string[] = [];
    const stricter: string[] = [];
    values.forEach((v, i) => {
      const d = disagreement(v, verdicts[i]);
      if (d.live) {
        live++;
        console.log(`${v.kind} ${JSON.stringify(v.value)}: ${d.live}`);
      }
      if (d.gap) gaps.push(`${v.kind} ${JSON.stringify(v.value)}: ${d.gap}`);
      if (d.stricter) stricter.push(`${v.kind} ${JSON.stringify(v.value)}: ${verdicts[i].error ?? 'Go accepts it'}`);
    });
    for (const line of [...gaps.slice(0, 5), ...stricter.filter(l => l.startsWith('promql')).slice(0, 5), ...stricter.filter(l => l.startsWith('duration')).slice(0, 3)]) console.log(`  ${line}`);
    const count = (kind: Value['kind']) => values.filter(v => v.kind === kind).length;
    console.log(`${values.length} values (seed ${SEED}): promql ${count('promql')}, duration ${count('duration')}`);
    console.log(`the library accepts what Go refuses, or reads it otherwise: ${live}`);
    console.log(`the library accepts a query Go refuses for a type check it does not make (KNOWN_PROMQL_GAPS, listed in docs/go-parsers.md): ${gaps.length}`);
    console.log(`the library refuses what Go accepts: ${stricter.length} (stricter than Go: harmless live, but refuses valid input)`);
    console.log(`property-values: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return live > 0 ? 1 : 0;
  } catch (e) {
    console.error(`property-values: ${(e as Error)?.message ?? String(e)}`);
    return 2;
  }
}

process.exitCode = main();
