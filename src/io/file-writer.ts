import * as fs from 'fs';
import { MessageChannel, MessagePort, receiveMessageOnPort, Worker } from 'worker_threads';

/**
 * From how many files a synthesis writes them on a worker thread. Creating a file costs the
 * kernel more than rendering it costs us (on ext4, 3,000 new 30 KB files take 1.5 s of system
 * time), so a large synthesis renders on while another core creates the files; below this,
 * starting the thread (tens of milliseconds) costs more than it saves.
 */
export const WORKER_THRESHOLD = 64;

/** Where the worker and the synthesis meet: `state[FINISHED]` is set once every file is written, `state[STARTED]` once the worker runs. */
const FINISHED = 0;
const STARTED = 1;
/** How long `close()` waits for a worker that never started before it gives up. */
const START_TIMEOUT_MS = 60_000;

// Plain JavaScript evaluated by the worker, so that it needs no file of its own next to a
// bundled or compiled copy of the library. It writes in the order it is given and stops writing
// at the first error, which it sends back before it says it has finished.
const WORKER_SOURCE = `
const { workerData } = require('worker_threads');
const fs = require('fs');
const { port, state } = workerData;
let failed = false;
Atomics.store(state, ${STARTED}, 1);
port.on('message', (m) => {
  if (m === null) {
    Atomics.store(state, ${FINISHED}, 1);
    Atomics.notify(state, ${FINISHED});
    port.close();
    return;
  }
  if (failed) return;
  try {
    fs.writeFileSync(m.file, m.data, { encoding: 'utf8' });
  } catch (e) {
    failed = true;
    port.postMessage({ message: String(e && e.message), code: e && e.code });
  }
});
`;

/**
 * Writes the files of one synthesis. `write()` hands a file over and returns; `close()` returns
 * once every file is on disk and throws the first write error, as `fs.writeFileSync` would have,
 * so that a synthesis still returns only when its output is complete.
 * @internal
 */
export abstract class FileWriter {
  /** A writer for `count` files: on a worker thread from `WORKER_THRESHOLD` files, else in place. */
  public static open(count: number): FileWriter {
    if (count < WORKER_THRESHOLD) return new InPlaceWriter();
    try {
      return new ThreadWriter();
    } catch {
      // a runtime that cannot start a thread still writes the files, one after the other
      return new InPlaceWriter();
    }
  }

  public abstract write(file: string, data: string): void;
  /**
   * Returns once every file handed over is written; throws the first write error unless `quiet`
   * (when the synthesis already failed and its own error is the one to report).
   */
  public abstract close(options?: { quiet?: boolean }): void;
}

class InPlaceWriter extends FileWriter {
  public write(file: string, data: string): void {
    fs.writeFileSync(file, data, { encoding: 'utf8' });
  }

  public close(_options?: { quiet?: boolean }): void {}
}

/** @internal exported for its tests */
export class ThreadWriter extends FileWriter {
  private readonly port: MessagePort;
  private readonly state = new Int32Array(new SharedArrayBuffer(8));
  private readonly worker: Worker;
  /** What was handed over before the worker ran: written in place if it never does. */
  private unstarted: Array<[string, string]> | undefined = [];

  constructor(source = WORKER_SOURCE, private readonly startTimeoutMs = START_TIMEOUT_MS) {
    super();
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(source, { eval: true, workerData: { port: port2, state: this.state }, transferList: [port2] });
    // a synthesis that throws before close() must not keep the process alive
    this.worker.unref();
  }

  public write(file: string, data: string): void {
    this.port.postMessage({ file, data });
    if (this.unstarted && Atomics.load(this.state, STARTED) === 1) this.unstarted = undefined;
    this.unstarted?.push([file, data]);
  }

  public close(options: { quiet?: boolean } = {}): void {
    this.port.postMessage(null);
    // blocks this thread only: the worker has its own event loop, and takes its messages there
    const since = Date.now();
    while (Atomics.wait(this.state, FINISHED, 0, Math.min(1000, this.startTimeoutMs)) === 'timed-out') {
      if (Atomics.load(this.state, STARTED) === 0 && Date.now() - since > this.startTimeoutMs) {
        // a thread that never ran wrote nothing: write what it was handed here, one after the other
        void this.worker.terminate();
        this.port.close();
        const inPlace = new InPlaceWriter();
        try {
          for (const [file, data] of this.unstarted ?? []) inPlace.write(file, data);
        } catch (e) {
          if (!options.quiet) throw e;
        }
        return;
      }
    }
    const reply = receiveMessageOnPort(this.port)?.message as { message: string; code?: string } | undefined;
    this.port.close();
    void this.worker.terminate();
    if (reply && !options.quiet) throw Object.assign(new Error(reply.message), reply.code ? { code: reply.code } : {});
  }
}
