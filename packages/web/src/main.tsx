import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Home } from './Home.js';
import { EncounterPage } from './screens/EncounterPage.js';
import './styles.css';

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
  if (m && token)
    return <EncounterPage key={`${m[1]}-${token}`} id={decodeURIComponent(m[1]!)} token={token} />;
  return <Home />;
}

const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);
