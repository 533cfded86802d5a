import { Suspense } from 'react';
import { lazy } from './lazy-parts.js';

// The keyboard help is a chunk of its own, loaded when the GM asks for it (`?`), not with the page.
const HelpDialog = lazy(() => import('./help-dialog.js').then((m) => ({ default: m.HelpDialog })));

/** The GM's keyboard shortcuts, as a modal dialog. */
export function HelpOverlay({ onClose }: { onClose: () => void }) {
  return (
    <Suspense fallback={null}>
      <HelpDialog onClose={onClose} />
    </Suspense>
  );
}
