import { useEffect } from 'react';
import { useLabStore } from '../../store/labStore';
import { pressPlaybackKey } from '../../store/keys';
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
      if (event.key === '?') {
        if (!inField) act(showShortcuts);
        return;
      }
      if (event.key === 'l' || event.key === 'L') {
        if (!inField) act(() => usePanelsStore.getState().setLinearTime(!usePanelsStore.getState().linearTime));
        return;
      }
      if (inField) return;
      // Space on a button, link or summary activates it; elsewhere it plays or pauses.
      if (event.key === ' ' && target?.closest(SPACE_ACTIVATES) != null) return;
      // Only the playback keys are taken; every other key keeps its usual meaning (Tab, Enter…).
      if (pressPlaybackKey(lab, event.key)) event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [showShortcuts]);
}
