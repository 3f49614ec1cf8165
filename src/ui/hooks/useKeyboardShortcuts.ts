import { useEffect } from 'react';
import { useLabStore } from '../../store/labStore';
import { usePanelsStore } from '../../store/panels';

/** Elements whose own keys win: typing, choosing, toggling. */
const OWNS_KEYS = 'input, select, textarea, [contenteditable=""], [contenteditable="true"]';
/** Elements Space activates by itself. */
const SPACE_ACTIVATES = 'button, a[href], summary, [role="button"]';

/**
 * Presenter keys, on the whole page: Space and "." play or pause, ← and → step, Home and End jump,
 * "?" shows the list, L switches Linear time (P, Q and Escape: Instructor.tsx). A key is left alone when the focused control uses it (a field, a slider,
 * Space on a button) or while a dialog is open.
 */
export function useKeyboardShortcuts(showShortcuts: () => void): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('dialog[open]') != null) return;
      const inField = target?.closest(OWNS_KEYS) != null;
      const lab = useLabStore.getState();
      const act = (action: () => void) => {
        event.preventDefault();
        action();
      };
      switch (event.key) {
        case ' ':
          if (!inField && target?.closest(SPACE_ACTIVATES) == null) act(lab.togglePlay);
          return;
        case '.':
          if (!inField) act(lab.togglePlay);
          return;
        case 'ArrowRight':
          if (!inField) act(lab.stepForward);
          return;
        case 'ArrowLeft':
          if (!inField) act(lab.stepBack);
          return;
        case 'Home':
          if (!inField) act(lab.rewind);
          return;
        case 'End':
          if (!inField) act(lab.toEnd);
          return;
        case '?':
          if (!inField) act(showShortcuts);
          return;
        case 'l':
        case 'L':
          if (!inField) act(() => usePanelsStore.getState().setLinearTime(!usePanelsStore.getState().linearTime));
          return;
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [showShortcuts]);
}
