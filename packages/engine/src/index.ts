export * from './agenda.js';
export * from './authority.js';
export * from './change.js';
export * from './clock.js';
export * from './commands.js';
export { buildCombatant, resolveExpiry } from './core-decide.js';
export * from './delta.js';
export * from './describe.js';
export * from './describe-ruleset.js';
export * from './dice/index.js';
export {
  appendTo,
  type Draft,
  draftOwns,
  foldWork,
  newDraft,
  ownState,
  updateCombatant,
  withCombatants,
  writeCombatant,
  writeCs,
  writeRs,
} from './draft.js';
export * from './engine.js';
export * from './events.js';
export * from './evolve.js';
export * from './hp.js';
export * from './hp-display.js';
export * from './ids.js';
export * from './issue-words.js';
export * from './json.js';
export * from './lazy.js';
export * from './legal.js';
export * from './log.js';
export * from './order.js';
export * from './params.js';
export * from './present.js';
export { Refold } from './refold.js';
export * from './refusals.js';
export * from './ruleset.js';
export * from './scenario.js';
export * from './simulation.js';
export * from './timed.js';
export * from './timeline.js';
export * from './types.js';
export * from './view.js';
export * from './wire.js';
export * from './xml.js';
