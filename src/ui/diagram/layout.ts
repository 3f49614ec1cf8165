/** The layout the lab worker computed (src/diagram/geometry/layout.ts), as the diagram's modules read it. */
export * from '../../store/diagramLayout';
