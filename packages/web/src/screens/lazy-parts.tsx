import {
  Component,
  type ComponentType,
  lazy as lazyOnce,
  memo,
  type ReactNode,
  Suspense,
  useEffect,
} from 'react';
import { useStore } from '../store/react.js';
import { isLoadFailure } from './load-failure.js';

/**
 * What a part is called in the box that says it could not be loaded, by the name of its chunk (the build
 * names a chunk after its module: `CardMenu-D6ijboSo.js`). A chunk not listed is "This part of the page".
 */
const PART_NAMES: Record<string, string> = {
  ActionForm: 'The action’s form',
  AddCombatant: 'Adding combatants',
  CardMenu: 'This card’s menu',
  CombatantEditor: 'The combatant editor',
  DicePanel: 'The dice',
  FiredLine: 'The timed events that fired',
  HpShown: 'How HP is shown',
  KeyPrompt: 'The key prompt',
  Library: 'The library',
  NextRound: 'The next round’s order',
  OptionsForm: 'The options',
  OwnConditions: 'Your own conditions',
  QrCode: 'The QR code',
  Share: 'The share links',
  TimedEvents: 'The timed events',
  TimelineView: 'The timeline',
  TurnNow: 'The turn timer',
  TurnTimer: 'The turn timer',
  'help-dialog': 'The keyboard help',
};

/** The address of the script a failed `import()` names in its message (Chromium's and Firefox's words). */
export function chunkUrl(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  return /(https?:\/\/\S+?\.m?js)\b/.exec(message)?.[1];
}

/** The words for the part a failed load was of: its chunk's, else "This part of the page". */
export function partName(error: unknown): string {
  const url = chunkUrl(error);
  const file = url ? (new URL(url).pathname.split('/').pop() ?? '') : '';
  // `Name-hash.js`: the build's hash is 8 characters, a dash among them maybe (`KeyPrompt-UiIp-JUZ.js`).
  const name = file.replace(/-[\w-]{8}\.m?js$/, '');
  return PART_NAMES[name] ?? 'This part of the page';
}

/**
 * A lazily loaded component that can be loaded again after its load failed: `lazy` keeps a rejected
 * load for good, so a retry is a new `lazy` over the same loader (the browser fetches the module again:
 * docs/web.md, "A part that cannot be fetched"). Shared by every place the part is drawn (each card's menu).
 */
function reloadable<P>(load: () => Promise<ComponentType<P>>) {
  let failed = false;
  const make = () =>
    lazyOnce(() =>
      load().then(
        (c) => ({ default: c }),
        (e: unknown) => {
          failed = true;
          throw e;
        },
      ),
    );
  let current = make();
  return {
    get: () => current,
    /** A new load when the last one failed (one for every place that asks at once). */
    again() {
      if (!failed) return;
      failed = false;
      current = make();
    },
  };
}

/**
 * In a failed part's place: what could not be loaded and Retry; tried again by itself when the page's
 * store is live again after a reconnect. A retry that failed where the server no longer has the chunk
 * (404: the server was updated since the page loaded, and its chunks have new names) reloads the page,
 * the only way to the new names.
 */
function PartFailed({ error, tries, retry }: { error: unknown; tries: number; retry: () => void }) {
  // Every part is drawn inside an encounter's page (the home page's lazy fields use React's own `lazy`).
  const store = useStore();
  useEffect(() => {
    // Live again after a reconnect (not the page's first connection): the network is back.
    let away = store.getSnapshot().reconnecting;
    return store.subscribe(() => {
      const s = store.getSnapshot();
      if (away && s.connected && !s.reconnecting) retry();
      away = s.reconnecting;
    });
  }, [store, retry]);
  useEffect(() => {
    const url = chunkUrl(error);
    if (!tries || !url) return;
    fetch(url, { method: 'HEAD', cache: 'no-store' }).then(
      (r) => {
        if (r.status === 404 || r.status === 410) location.reload();
      },
      () => {
        // Still no connection: the box stays, and the store's reconnect tries again.
      },
    );
  }, [error, tries]);
  return (
    <div className="part-failed" role="alert">
      {partName(error)} could not be loaded.{' '}
      <button type="button" onClick={retry}>
        Retry
      </button>
    </div>
  );
}

interface CatchProps {
  again: () => void;
  /** The part, drawn anew at each render: after a retry, with the new load. */
  draw: () => ReactNode;
}

/**
 * Around a lazy part: a load that failed is said in the part's place (`PartFailed`), the rest of the page
 * working on; any other error goes on to the app's boundary (`Failed.tsx`).
 */
class PartBoundary extends Component<CatchProps, { error?: unknown; failed: boolean; tries: number }> {
  override state: { error?: unknown; failed: boolean; tries: number } = { failed: false, tries: 0 };

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  retry = () => {
    if (!this.state.failed) return;
    this.props.again();
    this.setState((s) => ({ failed: false, error: undefined, tries: s.tries + 1 }));
  };

  override render() {
    const { failed, error, tries } = this.state;
    if (!failed) return this.props.draw();
    if (!isLoadFailure(error)) throw error;
    return <PartFailed error={error} tries={tries} retry={this.retry} />;
  }
}

/**
 * `lazy` for a part drawn after the first paint, inside a `Suspense` of the caller's: a chunk that cannot be
 * fetched fails in the part's place, with Retry, instead of replacing the page.
 */
export function lazy<T extends ComponentType<never>>(load: () => Promise<{ default: T }>): T {
  // The part's props go through as they are: `T`'s, which the caller's JSX checks.
  const chunk = reloadable(() => load().then((m) => m.default as unknown as ComponentType<object>));
  return ((props: object) => (
    <PartBoundary
      again={chunk.again}
      draw={() => {
        const Chunk = chunk.get();
        return <Chunk {...props} />;
      }}
    />
  )) as unknown as T;
}

/**
 * A part in a chunk of its own, loaded after the page's first load: the screen draws without it first,
 * then with it (nothing in its place meanwhile; a failed load says so in its place, with Retry). The
 * clock's extras — timed events, the turn timer, the next round's order — come so, each screen naming
 * only its own (`gm/lazy.ts`, `table/lazy.ts`, `player/lazy.ts`): a screen's first load carries no other
 * screen's.
 */
export function part<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const chunk = reloadable(load);
  // Memoized as the part itself may be: the same props draw nothing again.
  return memo((props: P) => (
    <PartBoundary
      again={chunk.again}
      draw={() => {
        const Chunk = chunk.get();
        return (
          <Suspense fallback={null}>
            <Chunk {...props} />
          </Suspense>
        );
      }}
    />
  ));
}
