import { parentPort, workerData } from 'node:worker_threads';
import { isRejection } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { runTrials, type SimPlan } from './simulate.js';

/** A worker thread of `simulate --workers K`: runs its range of trials and posts the tally. */
const { plan, seed, from, to } = workerData as { plan: SimPlan; seed: number; from: number; to: number };
const result = runTrials(plan, rulesets, seed, from, to, (done) =>
  parentPort!.postMessage({ progress: done }),
);
if (isRejection(result)) parentPort!.postMessage({ rejection: result });
else parentPort!.postMessage({ tally: result });
