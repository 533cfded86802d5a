/** A part of the app that could not be fetched (a dropped connection, or a new version deployed since). */
export function isLoadFailure(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically|Unable to preload/i.test(
    message,
  );
}
