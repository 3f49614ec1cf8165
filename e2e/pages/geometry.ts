import type { Locator } from '@playwright/test';

// Geometry read from the page's boxes (never from pixels in a screenshot).

/** Whether the element is whole on screen and on top: each corner (just inside) hits it or something inside it. */
export function wholeOnTop(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const r = element.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth || r.height < 2) return false;
    const inset = 3;
    return [
      [r.left + inset, r.top + inset],
      [r.right - inset, r.top + inset],
      [r.left + inset, r.bottom - inset],
      [r.right - inset, r.bottom - inset],
    ].every(([x, y]) => {
      const hit = document.elementFromPoint(x ?? 0, y ?? 0);
      return hit !== null && element.contains(hit);
    });
  });
}

export interface Shown {
  /** The element's box. */
  box: { top: number; bottom: number; left: number; right: number };
  /** The part of it in view: inside the window and every ancestor that clips (scrolls or hides its overflow). */
  seen: { top: number; bottom: number; left: number; right: number };
  /** Its own content taller than its box (cut, or in a well of its own). */
  overflows: boolean;
}

/** Where `locator` is and how much of it is in view, without scrolling anything. */
export function shown(locator: Locator): Promise<Shown> {
  return locator.evaluate((element) => {
    const r = element.getBoundingClientRect();
    const seen = {
      top: Math.max(r.top, 0),
      bottom: Math.min(r.bottom, innerHeight),
      left: Math.max(r.left, 0),
      right: Math.min(r.right, innerWidth),
    };
    for (let node = element.parentElement; node !== null; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const clip = node.getBoundingClientRect();
      seen.top = Math.max(seen.top, clip.top);
      seen.bottom = Math.min(seen.bottom, clip.bottom);
      seen.left = Math.max(seen.left, clip.left);
      seen.right = Math.min(seen.right, clip.right);
    }
    return {
      box: { top: r.top, bottom: r.bottom, left: r.left, right: r.right },
      seen,
      overflows: element.scrollHeight > element.clientHeight + 1,
    };
  });
}

/** Whole in view: every edge of the box inside what is seen of it (1 px of rounding). */
export const whole = ({ box, seen }: Shown) =>
  box.bottom - box.top > 2 &&
  seen.top <= box.top + 1 &&
  seen.bottom >= box.bottom - 1 &&
  seen.left <= box.left + 1 &&
  seen.right >= box.right - 1;
