/** Where progress goes: stderr, and whether it is a terminal. */
export interface ProgressIo {
  readonly stderr: (text: string) => void;
  /** Whether stderr is a terminal; progress is drawn only then. */
  readonly stderrIsTty?: boolean;
}

/** After how long a step shows progress: shorter steps stay silent. */
export const PROGRESS_DELAY_MS = 1000;

/**
 * One line on stderr that says what a long step is doing and for how long, redrawn every second
 * and erased when the step ends. Off when stderr is not a terminal (CI logs and pipes get no
 * control characters) and with `--quiet`; steps shorter than a second print nothing.
 *
 * @example
 * const progress = new Progress({ stderr: (t) => process.stderr.write(t), stderrIsTty: process.stderr.isTTY });
 * await progress.around('synthesizing the base', () => synthesize(dir, out, nodeModules));
 */
export class Progress {
  private timer?: ReturnType<typeof setInterval>;
  private drawn = false;

  public constructor(private readonly io: ProgressIo, private readonly quiet = false) {}

  /** Whether anything can be drawn at all. */
  public get enabled(): boolean {
    return !this.quiet && this.io.stderrIsTty === true;
  }

  /** Runs `step`, showing `label` and the elapsed seconds while it takes longer than a second. */
  public async around<T>(label: string, step: () => Promise<T>): Promise<T> {
    if (!this.enabled) return step();
    const started = Date.now();
    this.timer = setInterval(() => {
      this.io.stderr(`\r${label}… ${Math.round((Date.now() - started) / 1000)}s\x1b[K`);
      this.drawn = true;
    }, PROGRESS_DELAY_MS);
    try {
      return await step();
    } finally {
      this.stop();
    }
  }

  /**
   * Runs a blocking `step` (no timer can fire during it): the label is drawn before it starts and
   * erased when it ends, on a terminal only.
   */
  public aroundSync<T>(label: string, step: () => T): T {
    if (!this.enabled) return step();
    this.io.stderr(`\r${label}…\x1b[K`);
    this.drawn = true;
    try {
      return step();
    } finally {
      this.stop();
    }
  }

  /** Stops and erases the line (also from signal handlers). */
  public stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.drawn) this.io.stderr('\r\x1b[K');
    this.drawn = false;
  }
}
