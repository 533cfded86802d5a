import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Copies SQLite's write-ahead log back into the database file from a worker thread, so the event loop
 * that serves commands never waits for that copy and its fsync (SQLite's default runs it inside
 * whichever commit crosses 1,000 WAL pages: a pause of tens of milliseconds on a busy disk, every few
 * hundred commands). Durability does not change: a commit is durable once it is in the WAL, before and
 * after this; a checkpoint only moves committed pages into the main file.
 *
 * The worker is a few lines evaluated from a string (no separate file to locate, from the sources or
 * the build), with its own connection; it runs a PASSIVE checkpoint every `everyMs`, which never blocks
 * the writer. `stop()` ends it; the caller then checkpoints once more on its own connection.
 */
export interface Checkpointer {
  /** Resolves once the worker runs (or failed to start). */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

const WORKER_SOURCE = `
(async () => {
  const { parentPort, workerData } = await import('node:worker_threads');
  const Database = (await import(workerData.driver)).default;
  const db = new Database(workerData.file);
  db.pragma('busy_timeout = 1000');
  db.pragma('cache_size = -256');
  const tick = () => {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch (error) {
      // Busy or locked: the next tick tries again.
    }
  };
  const timer = setInterval(tick, workerData.everyMs);
  parentPort.on('message', (m) => {
    if (m === 'stop') {
      clearInterval(timer);
      db.close();
      parentPort.postMessage('stopped');
    }
  });
  parentPort.postMessage('ready');
})().catch((error) => {
  throw error;
});
`;

/**
 * Starts the checkpoint worker for `file`. `onFailure` runs if the worker cannot start or dies: the
 * caller then turns SQLite's own automatic checkpoints back on, so the WAL never grows without bound.
 */
export function startCheckpointer(file: string, everyMs: number, onFailure: () => void): Checkpointer {
  const driver = pathToFileURL(createRequire(import.meta.url).resolve('better-sqlite3')).href;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, everyMs, driver },
    // It allocates next to nothing: a small heap keeps its share of the process's memory small.
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
  });
  worker.unref();
  let stopped = false;
  const ready = new Promise<void>((resolve) => {
    worker.on('message', (m) => {
      if (m === 'ready') resolve();
    });
    worker.once('error', () => resolve());
    worker.once('exit', () => resolve());
  });
  worker.on('error', () => {
    if (!stopped) onFailure();
  });
  worker.on('exit', () => {
    if (!stopped) onFailure();
  });
  return {
    ready,
    stop() {
      if (stopped) return Promise.resolve();
      stopped = true;
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          void worker.terminate().then(() => resolve());
        };
        const timer = setTimeout(done, 2000);
        worker.on('message', (m) => {
          if (m === 'stopped') done();
        });
        worker.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        worker.postMessage('stop');
      });
    },
  };
}
