import { ControllerFinding } from '../../src/testkit';

export const CLUSTERS = ['east', 'west'];

/** `<code> <kind>/<name> <path>: <message>` lines, the shape assertions read best in. */
export function lines(findings: ControllerFinding[]): string[] {
  return findings.map((f) => `${f.code} ${f.kind}/${f.name} ${f.path}: ${f.message}`);
}

export function only(findings: ControllerFinding[], code: string): string[] {
  return lines(findings.filter((f) => f.code === code));
}
