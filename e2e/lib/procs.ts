import { ChildProcess, spawn } from 'child_process';
import { appendFileSync, closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { log } from './log';

/** One process the suite started. */
export interface Started {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  readonly child: ChildProcess;
  /** Set once the process has exited. */
  exitCode?: number | null;
}

export interface StartOptions {
  readonly env?: Record<string, string>;
  readonly cwd?: string;
}

/**
 * Starts the suite's processes with their output in one log file each, records every PID in
 * `<dir>/pids` as it starts, and stops exactly those PIDs (and nothing else) on exit, on a
 * signal or on an uncaught error. A later run first stops what a killed run recorded.
 */
export class Processes {
  private readonly started: Started[] = [];
  private readonly pidFile: string;
  private stopping = false;

  constructor(private readonly dir: string, private readonly baseEnv: Record<string, string>) {
    this.pidFile = join(dir, 'pids');
    process.on('exit', () => this.stopAllSync());
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.on(signal, () => {
        log(`received ${signal}: stopping ${this.started.length} processes`);
        this.stopAllSync();
        process.exit(130);
      });
    }
  }

  /** Stops the processes a previous run recorded in the same directory and left running. */
  public static stopLeftovers(dir: string): void {
    const file = join(dir, 'pids');
    if (!existsSync(file)) return;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const [pid, name] = line.split(' ');
      if (!pid) continue;
      if (alive(Number(pid))) {
        log(`stopping ${name} (pid ${pid}) left by an earlier run`);
        kill(Number(pid), 'SIGKILL');
      }
    }
    writeFileSync(file, '');
  }

  public start(name: string, command: string, args: string[], options: StartOptions = {}): Started {
    const logFile = join(this.dir, 'logs', `${name}.log`);
    const fd = openSync(logFile, 'a');
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...this.baseEnv, ...options.env },
      stdio: ['ignore', fd, fd],
      // its own process group, so that a Ctrl-C of the terminal reaches the suite only
      detached: true,
    });
    closeSync(fd);
    if (child.pid === undefined) throw new Error(`could not start ${name} (${command})`);
    const started: Started = { name, pid: child.pid, logFile, child };
    child.on('exit', (code) => {
      started.exitCode = code;
      if (!this.stopping) log(`${name} (pid ${child.pid}) exited with ${code}; its log: ${logFile}`);
    });
    this.started.push(started);
    appendFileSync(this.pidFile, `${child.pid} ${name}\n`);
    return started;
  }

  /** The processes that exited although the suite did not stop them. */
  public get exited(): Started[] {
    return this.started.filter(s => s.exitCode !== undefined);
  }

  public get all(): readonly Started[] {
    return this.started;
  }

  /**
   * Stops a running process with SIGSTOP (it keeps its state, does nothing) until the returned
   * function continues it with SIGCONT: a controller that falls behind, as under load.
   */
  public pause(name: string): () => void {
    const s = this.started.find(x => x.name === name && x.exitCode === undefined);
    if (!s) throw new Error(`no running process ${name} to pause`);
    kill(s.pid, 'SIGSTOP');
    log(`paused ${name} (pid ${s.pid})`);
    let resumed = false;
    return () => {
      if (resumed) return;
      resumed = true;
      kill(s.pid, 'SIGCONT');
      log(`resumed ${name} (pid ${s.pid})`);
    };
  }

  /** SIGTERM to every recorded PID, SIGKILL to what is left after a grace period. */
  public async stopAll(graceMs = 5000): Promise<void> {
    this.stopping = true;
    const running = this.started.filter(s => s.exitCode === undefined).reverse();
    // a paused process handles its SIGTERM once continued
    for (const s of running) {
      kill(s.pid, 'SIGTERM');
      kill(s.pid, 'SIGCONT');
    }
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline && running.some(s => alive(s.pid))) await new Promise(r => setTimeout(r, 100));
    for (const s of running) if (alive(s.pid)) kill(s.pid, 'SIGKILL');
    writeFileSync(this.pidFile, '');
  }

  private stopAllSync(): void {
    this.stopping = true;
    for (const s of this.started) if (s.exitCode === undefined && alive(s.pid)) kill(s.pid, 'SIGKILL');
    try {
      writeFileSync(this.pidFile, '');
    } catch {
      // the directory may be gone
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Signals the process group the suite started the process in (its git children too), else the process. */
function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}
