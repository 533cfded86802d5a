import { actorField } from '@roundkeeper/engine';
import { z } from 'zod';
import { EXERT_USES } from './rules.js';

const id = z.string().min(1).max(64);
const actor = actorField();
const tempo = z.number().int().min(0).max(9);

/** The ruleset's commands, validated by the engine before `decide` sees them. */
export const tempoCommands = {
  /** Starts the fight: round 1 begins with its planning phase. */
  start: z.object({}),
  /** Plans (or, with `replace`, changes) one of the round's actions; secret until taken. */
  plan: z.object({
    actor,
    action: id,
    slot: z.enum(['action', 'extra', 'free', 'exert']).optional(),
    replace: id.optional(),
    tempo: tempo.optional(),
    spell: z.string().trim().min(1).max(80).optional(),
    strike: z.boolean().optional(),
  }),
  /**
   * 003 "players can inform the GM they are taking an action at that Tempo": this character takes the next
   * turn of the tempo the count comes to, before the others of their side planned there.
   */
  'act-next': z.object({ actor }),
  /** Withdraws a planned action not yet taken. */
  unplan: z.object({ actor, plan: id }),
  /** The GM's count: ends planning, or ends the current turn and goes to the next planned action. */
  next: z.object({ skipPlanning: z.boolean().optional() }),
  /** Performs the action of the current turn (Strike, Guard target, Recover, Inventory swap…). */
  act: z.object({
    actor,
    target: id.optional(),
    weapon: z.string().min(1).max(60).optional(),
    roll: z.string().min(1).max(200).optional(),
    recover: z.boolean().optional(),
    draw: z.string().min(1).max(60).optional(),
    stow: z.string().min(1).max(60).optional(),
  }),
  /** Normal Move (and the Move action's distance) on the current turn. */
  move: z.object({ actor, distance: z.number().int().min(1).max(1000) }),
  /** Uses a reaction on any character's turn. */
  react: z.object({
    actor,
    reaction: id,
    trigger: z.string().trim().min(1).max(200),
    target: id.optional(),
    roll: z.string().min(1).max(200).optional(),
  }),
  /** Exert: gain Exertion for one of the text's uses. */
  exert: z.object({
    actor,
    use: z.enum(EXERT_USES),
    plan: id.optional(),
    tempo: tempo.optional(),
    effect: id.optional(),
    amount: z.number().int().min(1).max(3).optional(),
    roll: z.string().min(1).max(200).optional().describe('For "retry": the Skill roll rolled again.'),
    note: z.string().max(500).optional(),
  }),
  /** The GM forces Exertion on a character (beyond the maximum it kills). */
  'force-exertion': z
    .object({
      actor,
      amount: z.number().int().min(1).max(20),
      reason: z.string().max(200).optional(),
    })
    .meta({ label: 'Force Exertion', gm: true }),
  /** Ends the scene: each PC who Exerted takes damage equal to their Exertion. */
  'end-scene': z.object({}),
};
