// The lab's own build step: the security policy as a meta tag in the built index.html.
import type { Plugin } from 'vite';
import { META_CONTENT_SECURITY_POLICY } from './securityPolicy.ts';

/**
 * Puts the Content-Security-Policy (and the referrer policy) first in the built page's <head>, before
 * any script or stylesheet it must govern. Build only: the dev server runs Vite's inline preamble and
 * injected styles, and gets a relaxed policy as a header instead (see securityPolicy.ts).
 */
export function securityMeta(): Plugin {
  return {
    name: 'lab:security-meta',
    apply: 'build',
    transformIndexHtml: () => [
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: META_CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' },
      { tag: 'meta', attrs: { name: 'referrer', content: 'no-referrer' }, injectTo: 'head-prepend' },
    ],
  };
}
