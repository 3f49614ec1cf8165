/**
 * Bounds on the reviewer (docs/architecture.md#a-limit-on-everything). A design is a few kilobytes of
 * JSON; the bounds make a hostile or mistaken input cheap to refuse: its size is checked before it is
 * read, its nesting before it is parsed (a structured clone or a validator would recurse through it and
 * overflow the stack), and only the first errors are reported, with the count of the rest.
 * Apart from the reviewer itself, so the page can check a draft's size and depth without loading
 * the reviewer (the reviewer loads when its tab opens).
 */
export const REVIEW_INPUT_CHARS_MAX = 1_048_576;
export const REVIEW_DEPTH_MAX = 64;
export const REVIEW_ERRORS_MAX = 100;

/** How deep `text`'s arrays and objects nest, scanning outside strings; stops counting past `limit`. */
export function jsonDepth(text: string, limit = REVIEW_DEPTH_MAX): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return deepest;
}
