#!/usr/bin/env node
// `roundkeeper serve …` goes straight to the server's command line, before the other commands load:
// loading them grows V8's young generation, which the server holds at its first size (less memory).
if (process.argv[2] === 'serve') {
  const { serveCommandLine } = await import('@roundkeeper/server/command-line');
  await serveCommandLine(process.argv.slice(3));
} else {
  // A reader that stops early (`roundkeeper rulesets --json | head`) closes the pipe: the command stops
  // quietly, as other command-line tools do, instead of crashing with EPIPE.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
  await import('./commands.js');
}
