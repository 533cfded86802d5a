import { parentPort, workerData } from 'node:worker_threads';
import { isRejection } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { runShare, type ShareData } from './simulate.js';

/**
 * A worker thread of `simulate --workers K`: takes chunks of trials from the counter it shares with
 * the other threads until none are left, then posts its tally.
 */
const result = runShare(workerData as ShareData, rulesets, () => parentPort!.postMessage({ progress: true }));
if (isRejection(result)) parentPort!.postMessage({ rejection: result });
else parentPort!.postMessage({ tally: result });
