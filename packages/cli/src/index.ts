export { CliError, EXIT, loadScenario } from './load.js';
export { rulesetsCommand } from './rulesets-command.js';
export { runCommand } from './run.js';
