/** The layout code (src/diagram/geometry/layout.ts), apart from layout.ts so that importing the model does not bring it into the first load. */
export * from '../../store/diagramCompute';
