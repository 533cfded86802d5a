/** The controls a viewer has, by the words on them, and a player's own word for Next on their turn. */
export interface Controls {
  labels: ReadonlySet<string>;
  endTurn: string | null;
}

const PRESS = /\b([Pp])ress /g;
/** A control named after "press" that the viewer has no button for: "Next", "Act now", "Recover". */
const NAMED = /^[A-Z][\w-]*(?: now)?/;

interface Press {
  at: number;
  /** "press " as written. */
  verb: string;
  capital: boolean;
  control: string;
  has: boolean;
}

/** A viewer's labels, longest first (a label that starts another is tried after it), sorted once per controls. */
const longestFirst = new WeakMap<Controls, string[]>();
function labelsOf(controls: Controls): string[] {
  let labels = longestFirst.get(controls);
  if (!labels) {
    labels = [...controls.labels].sort((a, b) => b.length - a.length);
    longestFirst.set(controls, labels);
  }
  return labels;
}

/** Each "press X" of a sentence: X a control the viewer has (its whole label), or the word it names. */
function presses(text: string, controls: Controls): Press[] {
  const out: Press[] = [];
  for (const m of text.matchAll(PRESS)) {
    const labels = labelsOf(controls);
    const rest = text.slice(m.index + m[0].length);
    const label = labels.find((l) => rest.startsWith(l) && !/^[\w-]/.test(rest.slice(l.length)));
    const control = label ?? NAMED.exec(rest)?.[0];
    if (control)
      out.push({ at: m.index, verb: m[0], capital: m[1] === 'P', control, has: label !== undefined });
  }
  return out;
}

/**
 * A sentence as this viewer may read it: where it tells the reader to press a control they do not have,
 * it says who does ("the GM presses Next"); a player told to press Next on their own turn is told their
 * own word for it ("press End my turn").
 */
export function forViewer(text: string, controls: Controls): string {
  let out = '';
  let i = 0;
  for (const p of presses(text, controls)) {
    if (p.has) continue;
    out += text.slice(i, p.at);
    if (p.control === 'Next' && controls.endTurn) out += `${p.capital ? 'P' : 'p'}ress ${controls.endTurn}`;
    else out += `${p.capital ? 'The' : 'the'} GM presses ${p.control}`;
    i = p.at + p.verb.length + p.control.length;
  }
  return out + text.slice(i);
}

/** The controls a sentence tells its reader to press that the viewer does not have. */
export function missingControls(text: string, controls: Controls): string[] {
  return presses(text, controls)
    .filter((p) => !p.has)
    .map((p) => p.control);
}
