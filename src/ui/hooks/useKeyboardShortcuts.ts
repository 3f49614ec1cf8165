import { useEffect } from 'react';
import { useRunStore } from '../../store/runStore';
import { pressPlaybackKey } from '../../store/keys';
import { OWNS_KEYS, TEXT_FIELD } from '../panels/ownsKeys';

/** Elements Space activates by itself (a menu opens, a box or a radio is chosen). */
const SPACE_ACTIVATES =
  'button, a[href], summary, [role="button"], select, input[type="checkbox"], input[type="radio"]';

/**
 * Presenter keys, on the whole page: Space and "." play or pause, ← and → step, Home and End jump,
 * "?" shows the list, L switches Linear time (P, Q and Escape: Instructor.tsx). The playback keys
 * step the replay whatever has focus — a radio, a slider, a menu — except a text field, where they
 * edit the text; Space still presses a focused button or box. Nothing is taken while a dialog is open.
 * A widget that uses ← → itself (the tab bar) handles them first and marks them handled.
 */
export function useKeyboardShortcuts(showShortcuts: () => void): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('dialog[open]') != null) return;
      const inField = target?.closest(OWNS_KEYS) != null;
      const inTextField = target?.closest(TEXT_FIELD) != null;
      const lab = useRunStore.getState();
      const act = (action: () => void) => {
        event.preventDefault();
        action();
      };
      if (event.key === '?') {
        if (!inField) act(showShortcuts);
        return;
      }
      if (event.key === 'l' || event.key === 'L') {
        if (!inField) act(() => lab.setScale(lab.scale === 'linear' ? 'ordinal' : 'linear'));
        return;
      }
      if (inTextField) return;
      // Space on a button, link or summary activates it; elsewhere it plays or pauses.
      if (event.key === ' ' && target?.closest(SPACE_ACTIVATES) != null) return;
      // Only the playback keys are taken; every other key keeps its usual meaning (Tab, Enter…).
      if (pressPlaybackKey(lab, event.key)) event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [showShortcuts]);
}
