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
