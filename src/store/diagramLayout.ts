/**
 * The diagram's model as the lab worker lays runs out on it (src/diagram/geometry/model.ts): geometry,
 * the shapes of a layout, and the index the page finds what is on screen with (src/diagram/geometry/spans.ts). The
 * layout code itself is diagramCompute.ts, kept apart so the page's first load does not carry it.
 */
export * from '../diagram/geometry/model';
export * from '../diagram/geometry/spans';
