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

class ThreadWriter extends FileWriter {
  private readonly port: MessagePort;
  private readonly state = new Int32Array(new SharedArrayBuffer(8));
  private readonly worker: Worker;

  constructor() {
    super();
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { port: port2, state: this.state }, transferList: [port2] });
    // a synthesis that throws before close() must not keep the process alive
    this.worker.unref();
  }

  public write(file: string, data: string): void {
    this.port.postMessage({ file, data });
  }

  public close(options: { quiet?: boolean } = {}): void {
    this.port.postMessage(null);
    // blocks this thread only: the worker has its own event loop, and takes its messages there
    const since = Date.now();
    while (Atomics.wait(this.state, FINISHED, 0, 1000) === 'timed-out') {
      if (Atomics.load(this.state, STARTED) === 0 && Date.now() - since > START_TIMEOUT_MS) {
        void this.worker.terminate();
        throw new Error(`the thread that writes the synthesized files did not start within ${START_TIMEOUT_MS / 1000} s`);
      }
    }
    const reply = receiveMessageOnPort(this.port)?.message as { message: string; code?: string } | undefined;
    this.port.close();
    void this.worker.terminate();
    if (reply && !options.quiet) throw Object.assign(new Error(reply.message), reply.code ? { code: reply.code } : {});
  }
}
