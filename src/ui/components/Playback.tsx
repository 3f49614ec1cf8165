import type { Transcript } from '../../engine';
import { SPEEDS, useRunStore } from '../../store/runStore';
import { formatMs, stepSentence } from '../format';
import { REPLAY_FOCUS_ID, focusReplay } from '../panels/ownsKeys';
import { forwardAtRacePoint } from '../panels/predictGate';
import { BackIcon, ForwardIcon, PauseIcon, PlayIcon, RewindIcon } from './icons';

/**
 * Replay controls. Every move is exact: the view at step k is the transcript's first k events.
 * Buttons at the ends stay focusable (aria-disabled) so a keyboard user's focus never drops.
 */
export function Playback({ transcript, onShowShortcuts }: { transcript: Transcript; onShowShortcuts(): void }) {
  const step = useRunStore((state) => state.step);
  const playing = useRunStore((state) => state.playing);
  const speed = useRunStore((state) => state.speed);
  const scrubMs = useRunStore((state) => state.scrubMs);
  const { stepForward, stepBack, togglePlay, rewind, setSpeed, seekTime } = useRunStore.getState();
  const total = transcript.events.length;
  const endMs = transcript.events[total - 1]?.atMs ?? 0;
  const nowMs = transcript.events[step - 1]?.atMs ?? 0;
  const scrubbed = scrubMs ?? nowMs;
  const atStart = step === 0;
  const atEnd = step >= total;

  return (
    <section className="lab-playback" aria-label="Playback" id={REPLAY_FOCUS_ID} tabIndex={-1}>
      <div className="lab-playback-buttons">
        <button type="button" className="lab-button" aria-disabled={atStart} onClick={rewind}>
          <RewindIcon />
          Reset
        </button>
        <button type="button" className="lab-button" aria-disabled={atStart} onClick={() => !atStart && stepBack()}>
          <BackIcon />
          Step back
        </button>
        <button
          type="button"
          className="lab-button lab-play"
          aria-disabled={total === 0}
          onClick={() => {
            // At Predict's race point Play reveals after a guess and waits for one before.
            if (playing || !forwardAtRacePoint()) togglePlay();
          }}
          title={
            playing
              ? 'Stop the replay at the event it shows now (Space)'
              : 'Replay the recorded run one event at a time, at the chosen speed (Space)'
          }
        >
          {playing ? <PauseIcon /> : <PlayIcon />}
          {playing ? 'Pause' : 'Play'}
        </button>
        <button
          type="button"
          className="lab-button"
          aria-disabled={atEnd}
          onClick={() => !atEnd && !forwardAtRacePoint() && stepForward()}
          title="Show the next event of the run (→)"
        >
          Step forward
          <ForwardIcon />
        </button>
      </div>
      <label className="lab-speed">
        <span className="lab-label">Speed</span>
        <select value={speed} onChange={(event) => setSpeed(Number(event.target.value))}>
          {SPEEDS.map((value) => (
            <option key={value} value={value}>
              {value} {value === 1 ? 'step' : 'steps'}/s
            </option>
          ))}
        </select>
      </label>
      <label className="lab-scrubber">
        <span className="lab-label">Virtual time</span>
        <input
          type="range"
          min={0}
          max={endMs}
          step={1}
          value={scrubbed}
          aria-valuetext={`${formatMs(scrubbed)}, step ${step} of ${total}`}
          onChange={(event) => seekTime(Number(event.target.value))}
          onPointerUp={focusReplay}
        />
      </label>
      <p className="lab-position" aria-hidden="true">
        <span className="lab-position-step">
          Step {step} / {total}
        </span>
        <span className="lab-position-time">{formatMs(scrubbed)}</span>
      </p>
      <button
        type="button"
        className="lab-button lab-help-button"
        aria-label="Keyboard shortcuts"
        aria-haspopup="dialog"
        onClick={onShowShortcuts}
      >
        ?
      </button>
    </section>
  );
}

/** The current step in words, for everyone in the room and, through aria-live, for screen readers. */
export function StepAnnouncer({ transcript }: { transcript: Transcript }) {
  const step = useRunStore((state) => state.step);
  const wording = useRunStore((state) => state.wording);
  const sentence = stepSentence(transcript, step, wording);
  // The playbar keeps the sentence to two lines (the pane below never moves); a longer one is whole in its tooltip.
  return (
    <p className="lab-now" aria-live="polite" aria-atomic="true" data-step={step} title={sentence}>
      {sentence}
    </p>
  );
}
