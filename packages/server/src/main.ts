#!/usr/bin/env node
// The server as a program; `npx roundkeeper serve` and `npm start` run the same command line.
import { serveCommandLine } from './command-line.js';

await serveCommandLine(process.argv.slice(2));
