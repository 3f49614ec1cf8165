/** The diagram's layout code (src/worker/diagramLayout.ts), for the page parts that lay replays out themselves (the Compare tab, loaded when it opens). */
export { layoutDiagram, markerSize, sharedAxis, textWidthPx, timeGap } from '../worker/diagramLayout';
