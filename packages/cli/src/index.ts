export {
  analyze,
  analyzeCommand,
  type Contender,
  contenders,
  orderProbabilities,
  positions,
  probBefore,
} from './analyze.js';
export { CliError, EXIT, loadScenario } from './load.js';
export { type PolicyRule, ruleSchema } from './policy.js';
export { rulesetsCommand } from './rulesets-command.js';
export { runCommand } from './run.js';
export {
  createSimulator,
  emptyTally,
  runTrials,
  type SimPath,
  type SimPlan,
  type SimTally,
  type Simulator,
  simulateSectionSchema,
} from './simulate.js';
export { loadPlan, runSimulation, type SimSummary, summarize } from './simulate-command.js';
