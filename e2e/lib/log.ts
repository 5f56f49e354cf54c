const start = Date.now();

/** Progress on stderr, with the seconds since the suite started. */
export function log(message: string): void {
  const s = ((Date.now() - start) / 1000).toFixed(1).padStart(7);
  process.stderr.write(`[e2e ${s}s] ${message}\n`);
}

/** Seconds since the suite started. */
export function elapsed(): number {
  return (Date.now() - start) / 1000;
}
