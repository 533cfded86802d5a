import { useField, useStore } from '../store/react.js';

/**
 * While the server cannot be reached: says so, and that what the page shows is from before the connection
 * was lost, so nothing stale passes for live. Gone once the server sent the whole view again.
 */
export function Reconnecting() {
  const reconnecting = useField('reconnecting');
  const { retryNow } = useStore();
  if (!reconnecting) return null;
  return (
    <div className="reconnecting" role="status" data-testid="reconnecting">
      <strong>Reconnecting…</strong> The server cannot be reached: what you see is from before and may be out
      of date.{' '}
      <button type="button" className="retry" onClick={retryNow}>
        Try now
      </button>
    </div>
  );
}
