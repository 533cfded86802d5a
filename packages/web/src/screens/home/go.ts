/** Goes to one of the app's own addresses without a page load (main.tsx routes on `popstate`). */
export function go(url: string): void {
  history.pushState(null, '', url);
  dispatchEvent(new PopStateEvent('popstate'));
}
