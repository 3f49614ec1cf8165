/**
 * The engine's second front door: the settings specs and defaults the page's panels read (ranges,
 * lists, defaults), pure data, so the page takes them from the engine without loading it. Lint lets
 * the store import this file and nothing else of the engine.
 */
export { herdSettingsSpec, herdDefaults } from './models/herd/settings';
export { bufferOverloadSettingsSpec, bufferOverloadDefaults } from './models/buffer/settings';
export { BACKOFF_POLICIES, type BackoffPolicy } from './models/herd/backoff';
export { IMPLEMENTATIONS, TRANSPORTS, type Implementation } from './transcript';
export type { Transport } from './core/transcript';
