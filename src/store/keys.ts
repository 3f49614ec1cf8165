import type { RunState } from './runStore';

/** The store's playback actions a key can trigger. */
export type PlaybackKeyAction = 'togglePlay' | 'stepForward' | 'stepBack' | 'rewind' | 'toEnd';

/**
 * The presenter's playback keys, in one place for the page's keyboard handler and the headless
 * driver: Space and "." play or pause, ← and → step, Home and End jump. (Whether a key reaches the
 * lab at all — a focused field, Space on a button, an open dialog — is the page's call.)
 */
export const PLAYBACK_KEYS: Readonly<Record<string, PlaybackKeyAction>> = {
  ' ': 'togglePlay',
  '.': 'togglePlay',
  ArrowRight: 'stepForward',
  ArrowLeft: 'stepBack',
  Home: 'rewind',
  End: 'toEnd',
};

/** Runs the playback action of `key` on `state`; false when the key is not a playback key. */
export function pressPlaybackKey(state: RunState, key: string): boolean {
  const action = Object.hasOwn(PLAYBACK_KEYS, key) ? PLAYBACK_KEYS[key] : undefined;
  if (action === undefined) return false;
  state[action]();
  return true;
}
