import { jsonDepth, REVIEW_DEPTH_MAX, REVIEW_INPUT_CHARS_MAX } from '../../lesson/reviewBounds';
import type { ReviewResult } from '../../worker/protocol';
import { message, valueOf, type PanelSlice, type ReviewerSlice } from './state';

/** A review that refuses the text before the worker sees it: one error on the whole document. */
const refusal = (problem: string): ReviewResult => ({ ok: false, errors: [{ field: '/', message: problem }] });

/**
 * The text as a design, or why the reviewer will not read it. Size and nesting first: parsing a huge
 * text blocks the page, and cloning one nested 100,000 deep for the worker overflows the stack.
 */
function parseReviewInput(text: string): { ok: true; input: unknown } | { ok: false; problem: string } {
  if (text.length > REVIEW_INPUT_CHARS_MAX)
    return {
      ok: false,
      problem: `is ${text.length.toLocaleString('en')} characters, more than the reviewer reads (${REVIEW_INPUT_CHARS_MAX.toLocaleString('en')})`,
    };
  if (jsonDepth(text) > REVIEW_DEPTH_MAX)
    return {
      ok: false,
      problem: `nests arrays and objects more than ${REVIEW_DEPTH_MAX} levels deep; a design needs 3`,
    };
  try {
    return { ok: true, input: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: `is not JSON: ${message(error)}` };
  }
}

/** The design reviewer (prefilled with the example) and the reviewer skill folder's download. */
export const createReviewerSlice: PanelSlice<ReviewerSlice> = (deps) => (set, get) => ({
  reviewText: deps.exampleReview,
  review: { status: 'idle' },
  skill: { status: 'idle' },
  setReviewText: (reviewText) => set({ reviewText }),
  async submitReview() {
    const parsed = parseReviewInput(get().reviewText);
    if (!parsed.ok) {
      set({ review: { status: 'done', value: refusal(parsed.problem) } });
      return;
    }
    set({ review: { status: 'loading', value: valueOf(get().review) } });
    try {
      set({
        review: { status: 'done', value: (await deps.client.call({ type: 'review', input: parsed.input })).result },
      });
    } catch (error) {
      set({ review: { status: 'error', message: message(error), value: null } });
    }
  },
  async downloadSkill(save) {
    set({ skill: { status: 'loading', value: valueOf(get().skill) } });
    try {
      const answer = await deps.client.call({ type: 'skill' });
      save(answer.bytes);
      set({ skill: { status: 'done', value: answer.files } });
    } catch (error) {
      set({ skill: { status: 'error', message: message(error), value: null } });
    }
  },
});
