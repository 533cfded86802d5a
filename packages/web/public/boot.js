// Loaded before the app (index.html). When the app's own script cannot be fetched (a dropped connection,
// or a server updated since this page was cached), the page would stay blank: it says so instead, with a
// Reload button. A classic script, since the page's policy allows no inline script.
addEventListener(
  'error',
  (event) => {
    const el = event.target;
    if (!(el instanceof HTMLScriptElement)) return;
    // Only while the app has drawn nothing: a script that fails later is the app's to say (screens/Failed.tsx).
    const root = document.getElementById('root');
    if (!root || root.dataset.failed || root.hasChildNodes()) return;
    root.dataset.failed = 'true';
    const main = document.createElement('main');
    main.className = 'center failed';
    main.setAttribute('role', 'alert');
    const h1 = document.createElement('h1');
    h1.textContent = 'Roundkeeper could not be loaded';
    const p = document.createElement('p');
    p.textContent =
      'The connection to the server dropped, or the server was updated since this page was opened. Reloading fetches it again; nothing of the encounter is lost.';
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'primary';
    button.textContent = 'Reload';
    button.addEventListener('click', () => location.reload());
    main.append(h1, p, button);
    root.replaceChildren(main);
  },
  true,
);
