/** The diagram's layout code (src/diagram/geometry/layout.ts), for the page parts that lay replays out themselves (the Compare tab, loaded when it opens). */
export { layoutDiagram, markerSize, sharedAxis, textWidthPx, timeGap } from '../diagram/geometry/layout';
