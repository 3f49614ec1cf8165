/** Elements that take keys themselves: the lab's shortcuts leave key presses in them alone. */
export const OWNS_KEYS = 'input, select, textarea, [contenteditable=""], [contenteditable="true"]';

/**
 * Fields a user types into. The replay's keys (← → Space Home End) reach the lab from everywhere
 * else, so a presenter who has just clicked a radio or a slider still steps with →.
 */
export const TEXT_FIELD =
  'input:not([type]), input[type="text"], input[type="number"], input[type="search"], input[type="email"], input[type="url"], input[type="tel"], input[type="password"], textarea, [contenteditable=""], [contenteditable="true"]';

/** The element that holds the focus for the replay (the playback bar; it takes no keys itself). */
export const REPLAY_FOCUS_ID = 'lab-replay';

/**
 * After a radio or a slider changes, the focus goes back to the replay: the next arrow steps the
 * run instead of moving the control again.
 */
export function focusReplay(): void {
  document.getElementById(REPLAY_FOCUS_ID)?.focus({ preventScroll: true });
}
