import { lazy, Suspense, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
// The runtime is Preact (docs/web.md, "Runtime"): this hands its hooks to Preact DevTools when they are
// there, as React's production build does to React's (e2e/renders.test.ts counts renders through it).
import 'preact/devtools';
import { Failed } from './screens/Failed.js';
import './styles.css';

// Each page is its own chunk: the home page does not load the encounter's screens, nor they the home's
// forms (and each encounter loads only its ruleset: see store/rulesets.ts).
const Home = lazy(() => import('./screens/home/Home.js').then((m) => ({ default: m.Home })));
const EncounterPage = lazy(() =>
  import('./screens/EncounterPage.js').then((m) => ({ default: m.EncounterPage })),
);

const loadingPage = <p className="center">Loading…</p>;

/** Routes: `/` home, `/e/<id>?token=<token>` the encounter as the token's role sees it. */
function App() {
  const [path, setPath] = useState(() => location.pathname + location.search);
  useEffect(() => {
    const onPop = () => setPath(location.pathname + location.search);
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  const url = new URL(path, location.origin);
  const m = /^\/e\/([^/]+)\/?$/.exec(url.pathname);
  const token = url.searchParams.get('token');
  return (
    <Failed>
      <Suspense fallback={loadingPage}>
        {m && token ? (
          <EncounterPage key={`${m[1]}-${token}`} id={decodeURIComponent(m[1]!)} token={token} />
        ) : (
          <Home />
        )}
      </Suspense>
    </Failed>
  );
}

const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);
