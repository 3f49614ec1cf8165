/** Elements that take keys themselves: the lab's shortcuts leave key presses in them alone. */
export const OWNS_KEYS = 'input, select, textarea, [contenteditable=""], [contenteditable="true"]';
