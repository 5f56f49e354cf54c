import { ControllerFinding, setSource } from '../../src/testkit';

/**
 * The problem kinds the controller model may find in generated output: none since issue 8 fixed
 * the emitters. Every test that runs the model on generated output accepts these and nothing
 * else; a problem the emitters cannot fix yet would be named here, with its issue.
 */
export const KNOWN_CONTROLLER_PROBLEMS: string[] = [];

/** Synthesized objects of every chart, each tagged with its chart (one chart = one file of manifests/). */
export function modelInput(charts: Array<{ id: string; objects: any[] }>): any[] {
  return charts.flatMap((c) => c.objects.map((o) => {
    setSource(o, c.id);
    return o;
  }));
}

/** The findings whose kind is not one of the known problems of today's emitters. */
export function unexpectedFindings(findings: ControllerFinding[]): string[] {
  return findings.filter((f) => !KNOWN_CONTROLLER_PROBLEMS.includes(f.code))
    .map((f) => `${f.code} ${f.source} ${f.kind}/${f.name} ${f.path}: ${f.message}`);
}
