/** The layout code (src/worker/diagramLayout.ts), apart from layout.ts so that importing the model does not bring it into the first load. */
export * from '../../store/diagramCompute';
