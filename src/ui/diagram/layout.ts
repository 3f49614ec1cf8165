/** The layout the lab worker computed (src/worker/diagramLayout.ts), as the diagram's modules read it. */
export * from '../../store/diagramLayout';
