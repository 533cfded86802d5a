export { type AppOptions, buildApp } from './app.js';
export { Hub, HubError } from './hub.js';
export { authorize, defaultPlayerCommands, deriveToken, hashToken, newToken } from './links.js';
export { DEFAULT_WEB_ROOT, type RunningServer, type ServeOptions, startServer } from './server.js';
export { MemoryStorage } from './storage/memory.js';
export { SqliteStorage } from './storage/sqlite.js';
export * from './storage/storage.js';
