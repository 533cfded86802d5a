#!/usr/bin/env node
// `roundkeeper serve …` goes straight to the server's command line, before the other commands load:
// loading them grows V8's young generation, which the server holds at its first size (less memory).
if (process.argv[2] === 'serve') {
  const { serveCommandLine } = await import('@roundkeeper/server/command-line');
  await serveCommandLine(process.argv.slice(3));
} else {
  await import('./commands.js');
}
