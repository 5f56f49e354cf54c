import { Duration } from 'cdk8s';
import fc from 'fast-check';
import { buildModules, findModules, formatFinding, formatSummary, LibraryVerdict, runModulesOnValues, SuiteError } from './suite';
import { DeployFreeze, FreezeSchedule } from '../src';
import { re2Problem } from '../src/artifact/regex';
import { semverConstraintProblem } from '../src/artifact/versioning';
import { parseGoDuration, toGoDuration } from '../src/util/duration';

/*
 * npx tsx conformance/property-values.ts
 *
 * The strings the library writes into fields that upstream Go code parses (sync-window cron
 * schedules, tag and path regular expressions, SemVer constraints, durations), drawn with
 * fast-check, tricky ones first. The library's own validators give their verdict; the Go modules
 * (`--values`) give Go's: robfig/cron as Argo CD configures it, Go's regexp, Masterminds semver at
 * Kargo's version, time.ParseDuration. A value the library accepts and Go refuses breaks live.
 * Exit 1 on such a value, 0 when there is none, 2 when the suite cannot run.
 * CONFORMANCE_VALUES=<n> draws n random values of each kind (default 300); CONFORMANCE_SEED=<n>.
 */

const RUNS = Number(process.env.CONFORMANCE_VALUES ?? 300);
const SEED = Number(process.env.CONFORMANCE_SEED ?? 20261201);

// ---------------------------------------------------------------------------------------------
// the library's verdicts, asked through the functions its constructs call

/** DeployFreeze is where a schedule enters; it writes the trimmed schedule into the AppProject. */
function cronVerdict(schedule: string): LibraryVerdict {
  try {
    const freeze = new DeployFreeze({ reason: 'conformance', schedule: FreezeSchedule.cron(schedule, Duration.hours(1)) });
    return { kind: 'cron', value: freeze.schedule, accepted: true };
  } catch {
    return { kind: 'cron', value: schedule, accepted: false };
  }
}

const regexVerdict = (pattern: string): LibraryVerdict => ({ kind: 'regex', value: pattern, accepted: re2Problem(pattern) === undefined });

const semverVerdict = (constraint: string): LibraryVerdict =>
  ({ kind: 'semver', value: constraint, accepted: semverConstraintProblem(constraint) === undefined });

/** A duration the command line reads from a sync window (parseGoDuration). */
function durationVerdict(text: string): LibraryVerdict {
  try {
    parseGoDuration(text);
    return { kind: 'duration', value: text, accepted: true };
  } catch {
    return { kind: 'duration', value: text, accepted: false };
  }
}

/** A duration the library writes (soak, interval, freeze duration): always accepted, by construction. */
const writtenDuration = (seconds: number): LibraryVerdict => ({ kind: 'duration', value: toGoDuration(Duration.seconds(seconds)), accepted: true });

// ---------------------------------------------------------------------------------------------
// the values: tricky ones by hand, then random ones built from the same pieces

const TRICKY = {
  cron: ['@weekly', '@daily', '@hourly', '@monthly', '@yearly', '@annually', '@midnight', '@every 1h', '@reboot', '0 22 * * 7', '0 22 * * 0-7',
    '0 22 * * 5-7', '*/15 * * * *', '0 */2 * * *', '0 0 */3 * *', '5/15 * * * *', '0 0 1-31/2 * *', '0 22 * * mon-fri', '0 22 * * MON', '0 0 1 jan *',
    '0 0 1 JAN-MAR *', '0 0 ? * *', '0 0 * * ?', '0 0 L * *', '0 0 * * 5#3', '0 0 0 * *', '60 * * * *', '0 24 * * *', '0 0 32 * *', '0 0 * 13 *',
    '* * * * * *', '0 0 * *', ' 0 22 * * 5 ', '0 0 20 12 *', '0 22 * * 5,6', '0-59/0 * * * *', '0 0 * * sun-sat', '0 0 * * 7-7', 'TZ=UTC 0 0 * * *'],
  regex: ['(?P<x>a)', '(?<x>a)', 'a{1001}', 'a{1000}', 'a{0,1000}', '(a{1000}){2}', '\\u00e9', '\\x{e9}', '\\xe9', 'é', '(?=a)', '(?!a)', '(?<=a)b', '(?<!a)b',
    '(a)\\1', '\\k<x>', '\\d+', '[[:alpha:]]+', '\\pL', '\\p{Greek}', '\\p{Script=Greek}', '(?i)abc', '(?i:abc)', '(?s).', '(?U)a+', '(?m)^a$',
    '^v?[0-9]+\\.[0-9]+\\.[0-9]+$', '\\Z', '\\z', '\\A', '\\cA', '[a-', '(', 'a**', 'a{2,1}', '\\b\\B', '[^]a]', '[]a]', '\\/', '\\-', '\\_', '\\e',
    'a++', 'a?+', '(?#comment)', '(?|a|b)', '\\Q.*\\E', '\\R', '\\h', '\\N', '[\\w-]', '\\0', '\\012', '$', '^$'],
  semver: ['!=1.2.3', '~1', '^0.0', '^0', '1.2.x', '1.x', 'x', '*', '>= 1.0, < 2', '>=1.0, <2', '>=1.0 <2', '>=1.0,<2', '^1 || ^2', '^1||^2', '1.2.3 - 2.0.0',
    '1.2 - 2', 'v1.2.3', '=1.0', '= 1.0', '~>1.2', '~> 1.2', '^1.2.3-beta.1', '>=1.0.0-0', '1.2.3+build.5', '01.2.3', '1.2.3.4', '<=1', 'latest', '>1.0 ||',
    '|| 1', '>=1.0, ', ',', '1.0 || || 2.0', '!1.0', '>=v1.0', '^1.2.3 <2', '~1.2.3, !=1.2.4', '>= 1.0.0 < 2.0.0', '1.0.0 || >=2.0 <3', '=>1.0', '>=1.0;<2'],
  duration: ['1h30m', '90m', '1.5h', '0', '0s', '-1h', '+1h', '1d', '1w', '1h 30m', '.5h', '1.h', '300ms', '1us', '1µs', '1μs', '1ns', '2562047h', '2562048h',
    '9999999999h', 'h', '1H', '1m30', '1e3s', '', ' 1h', '1h0m0s', '0.000000001s', '1.5.5h', '30m1h'],
};

function joinOf(parts: fc.Arbitrary<string>, separators: string[], max: number): fc.Arbitrary<string> {
  return fc.array(fc.tuple(parts, fc.constantFrom(...separators)), { minLength: 1, maxLength: max })
    .map((xs) => xs.map(([p, s], i) => (i === xs.length - 1 ? p : p + s)).join(''));
}

function cronField(min: number, max: number, names: string[]): fc.Arbitrary<string> {
  // mostly in range: a schedule the library refuses tells less than one it accepts
  const n = fc.oneof({ weight: 6, arbitrary: fc.integer({ min, max }) }, fc.constantFrom(min - 1, max + 1)).map(String);
  const atom = fc.oneof(n, fc.constant('*'), ...(names.length ? [fc.constantFrom(...names)] : []));
  const range = fc.oneof({ weight: 2, arbitrary: atom }, fc.tuple(atom, atom).map(([a, b]) => `${a}-${b}`));
  const stepped = fc.oneof({ weight: 3, arbitrary: range }, fc.tuple(range, fc.integer({ min: 0, max: 40 })).map(([r, s]) => `${r}/${s}`));
  return fc.oneof({ weight: 2, arbitrary: fc.constant('*') }, joinOf(stepped, [','], 3));
}

const ARBITRARIES: Record<LibraryVerdict['kind'], fc.Arbitrary<string>> = {
  cron: fc.oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(cronField(0, 59, []), cronField(0, 23, []), cronField(1, 31, ['?']), cronField(1, 12, ['jan', 'DEC', 'feb']),
        cronField(0, 7, ['mon', 'FRI', 'sun', 'sat', '?'])).map((f) => f.join(' ')),
    },
    fc.constantFrom(...TRICKY.cron),
  ),
  regex: joinOf(fc.oneof(fc.constantFrom(...TRICKY.regex), fc.constantFrom('a', '.', '[0-9]+', '\\.', '-', '(rc|beta)', 'v?', '|')), [''], 4),
  semver: joinOf(fc.oneof(
    fc.constantFrom(...TRICKY.semver),
    fc.tuple(fc.constantFrom('', '=', '!=', '>', '<', '>=', '<=', '~', '^', '~>'), fc.constantFrom('', ' '), fc.nat(3), fc.constantFrom('', '.x', '.2', '.2.3', '.*', '.2.3-rc.1'))
      .map(([op, sp, major, rest]) => `${op}${sp}${major}${rest}`),
  ), [' ', ', ', ',', ' || ', '||'], 3),
  duration: fc.oneof(
    joinOf(fc.tuple(fc.constantFrom('0', '1', '15', '90', '1.5', '.5', '2562047', '99999999999'), fc.constantFrom('h', 'm', 's', 'ms', 'us', 'µs', 'ns', 'd', ''))
      .map(([n, u]) => n + u), [''], 3),
    fc.constantFrom(...TRICKY.duration),
  ),
};

function draw(): LibraryVerdict[] {
  const verdictOf = { cron: cronVerdict, regex: regexVerdict, semver: semverVerdict, duration: durationVerdict };
  const values: LibraryVerdict[] = [];
  for (const kind of Object.keys(ARBITRARIES) as LibraryVerdict['kind'][]) {
    const drawn = [...TRICKY[kind], ...fc.sample(ARBITRARIES[kind], { numRuns: RUNS, seed: SEED })];
    for (const value of [...new Set(drawn)]) values.push(verdictOf[kind](value));
  }
  for (const seconds of fc.sample(fc.integer({ min: 1, max: 400 * 24 * 3600 }), { numRuns: RUNS, seed: SEED })) values.push(writtenDuration(seconds));
  return values;
}

function main(): number {
  try {
    const modules = findModules();
    if (modules.length === 0) throw new SuiteError('no Go module under conformance/ to judge the values');
    buildModules(modules);
    const values = draw();
    const reports = runModulesOnValues(modules, values);
    const refusedByGo = reports.flatMap((r) => r.findings);
    for (const f of refusedByGo) console.log(formatFinding(f));
    const refusedByLibrary = reports.reduce((n, r) => n + Object.entries(r.counted)
      .filter(([k]) => /library-refuses|RefusedByLibrary/i.test(k)).reduce((m, [, v]) => m + v, 0), 0);
    const byKind = (accepted: boolean) => ['cron', 'regex', 'semver', 'duration']
      .map((k) => `${k} ${values.filter((v) => v.kind === k && v.accepted === accepted).length}`).join(', ');
    console.log(`${values.length} values (seed ${SEED}): the library accepts ${byKind(true)}; refuses ${byKind(false)}`);
    console.log(`library accepts, Go refuses: ${refusedByGo.length}`);
    console.log(`library refuses, Go accepts: ${refusedByLibrary} (stricter than Go: harmless live, but refuses valid input)`);
    for (const line of formatSummary(reports)) console.log(line);
    return refusedByGo.length > 0 ? 1 : 0;
  } catch (e) {
    console.error(`conformance: ${e instanceof SuiteError ? e.message : (e as Error)?.message ?? String(e)}`);
    return 2;
  }
}

process.exitCode = main();
