import { Component, type ReactNode } from 'react';
import { isLoadFailure } from './load-failure.js';

/** What the page says instead of itself when it cannot be shown: why, and what to do. */
export function FailedPage({ error }: { error: unknown }) {
  const load = isLoadFailure(error);
  return (
    <main className="center failed" role="alert">
      <h1>{load ? 'Part of Roundkeeper could not be loaded' : 'This page could not be shown'}</h1>
      <p>
        {load
          ? 'The connection to the server dropped, or the server was updated since this page was opened. Reloading fetches it again; nothing of the encounter is lost.'
          : `Something went wrong drawing it (${error instanceof Error ? error.message : String(error)}). Reloading draws it again; nothing of the encounter is lost.`}
      </p>
      <button type="button" className="primary" onClick={() => location.reload()}>
        Reload
      </button>
    </main>
  );
}

/**
 * Around the whole app: an error while a page is drawn, or a chunk that cannot be fetched, shows why and a
 * Reload button instead of a blank page (React's boundaries are still classes).
 */
export class Failed extends Component<{ children: ReactNode }, { error?: unknown; failed: boolean }> {
  override state: { error?: unknown; failed: boolean } = { failed: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  override render() {
    return this.state.failed ? <FailedPage error={this.state.error} /> : this.props.children;
  }
}
