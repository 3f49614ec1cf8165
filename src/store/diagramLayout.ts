/** The diagram's layout as the lab worker computes it (src/worker/diagramLayout.ts): its model, geometry constants and helpers for the page. */
export * from '../worker/diagramLayout';
