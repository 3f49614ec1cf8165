// The page's security policy, in one place: vite.config.ts sends it as headers from `vite preview` and
// writes it into the built index.html as a meta tag; the e2e tests compare against it.
//
// Nothing runs that the lab did not ship: scripts, workers (the engine, the tools and the service
// worker), styles, fetches, images and the web app manifest come from the page's own origin only. 'wasm-unsafe-eval' lets
// sql.js compile its WebAssembly and nothing else; no 'unsafe-eval' (the reviewer's JSON Schema is
// compiled at build time) and no 'unsafe-inline': React and uPlot set styles through the CSSOM
// (element.style), which style-src does not govern, and every stylesheet is a built .css file.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "manifest-src 'self'",
  "style-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/**
 * The meta tag's policy: the same less frame-ancestors, which browsers ignore in a meta element (and
 * warn about); a host that cannot send headers still gets everything else.
 */
export const META_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.split('; ')
  .filter((directive) => !directive.startsWith('frame-ancestors'))
  .join('; ');

/** Headers for `vite preview` (and any server that hosts dist/). */
export const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
} as const;

/**
 * The dev server's policy is relaxed where Vite's development mode needs it: the React Fast Refresh
 * preamble is an inline script, CSS arrives as injected <style> elements, and hot updates come over a
 * WebSocket. It is there so a dev session still catches a third-party origin or an eval; the strict
 * policy is tested against the production build.
 */
export const DEV_SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
    .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
    .replace("connect-src 'self'", "connect-src 'self' ws: wss:"),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
} as const;
