/** The index over the layout's lists that finds what reaches into a band of rows (src/diagram/geometry/spans.ts). */
export { SpanIndex, WHOLE, type Band } from '../../store/diagramLayout';
