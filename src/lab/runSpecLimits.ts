/**
 * How long a run spec may be. It travels in the page's address (Compare's runA and runB), so the page's
 * link reader cuts it at the same length the parser accepts; kept in a file of its own so the page
 * reads the number without loading the engine.
 */
export const RUN_SPEC_CHARS_MAX = 2_000;
