/**
 * The diagram's layout as the lab worker computes it (src/worker/diagramLayout.ts): its model,
 * geometry constants and helpers, and the index the page finds what is on screen with (diagramSpans.ts).
 */
export * from '../worker/diagramLayout';
export * from '../worker/diagramSpans';
