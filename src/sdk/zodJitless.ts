import { config } from 'zod/v4/core';

// The SDK validates with zod, whose first object schema probes `new Function("")` to decide whether it
// may compile parsers. Under the page's Content-Security-Policy (no 'unsafe-eval') the probe is refused
// and, though zod catches the throw, the browser reports a securitypolicyviolation from the page and
// its workers. jitless skips the probe and the compiled parsers; zod's interpreted parsers give the same
// results. Imported before the SDK so its schemas, built as its modules load, see the setting.
config({ jitless: true });
