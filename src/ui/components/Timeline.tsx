import type { Transcript } from '../../engine';
import { memo, useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useRunStore, type LabEvent } from '../../store/runStore';
import { eventTextAt, fateShown, formatNumber } from '../format';
import { usePredictRace } from '../panels/predictPhase';

/** A limit on the rows drawn (every step re-lays them out): a long run lists the latest ones, the diagram holds them all. */
export const TIMELINE_ROWS_MAX = 120;

/** The dock's height bounds when resized (px), and the keyboard's step. */
const DOCK_MIN_PX = 40;
const DOCK_STEP_PX = 40;

/**
 * The timeline docked under the diagram: opened it shows several rows (four, one line each, in a
 * short window), collapsed one line, the current event (the list scrolls inside itself to keep it in
 * view); the handle on its top edge
 * resizes it (drag, or ↑ ↓ when focused). Its default height follows the window's (CSS).
 */
export function TimelineDock({ transcript }: { transcript: Transcript }) {
  const [collapsed, setCollapsed] = useState<boolean | null>(null);
  const [heightPx, setHeightPx] = useState<number | null>(null);
  const dock = useRef<HTMLDivElement>(null);
  const drag = useRef<{ startY: number; startHeight: number } | null>(null);
  const maxPx = () => Math.round(window.innerHeight * 0.6);
  const resize = (px: number) => {
    setCollapsed(false);
    setHeightPx(Math.max(DOCK_MIN_PX, Math.min(maxPx(), Math.round(px))));
  };
  const current = () => dock.current?.querySelector<HTMLElement>('.lab-timeline-scroll')?.clientHeight ?? DOCK_MIN_PX;
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startY: event.clientY, startHeight: current() };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current !== null) resize(drag.current.startHeight + drag.current.startY - event.clientY);
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    event.preventDefault();
    resize(current() + (event.key === 'ArrowUp' ? DOCK_STEP_PX : -DOCK_STEP_PX));
  };
  const state = collapsed === null ? 'auto' : collapsed ? 'collapsed' : 'open';
  return (
    <div
      className="lab-dock"
      ref={dock}
      data-state={state}
      style={heightPx === null || collapsed === true ? undefined : { ['--dock-list-h' as string]: `${heightPx}px` }}
    >
      <div
        className="lab-dock-handle"
        role="separator"
        aria-orientation="horizontal"
        aria-label="Resize the timeline"
        aria-valuemin={0}
        aria-valuemax={maxPx()}
        aria-valuenow={heightPx ?? 0}
        aria-valuetext={heightPx === null ? 'default height' : `${heightPx} px`}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onKeyDown={onKeyDown}
      />
      <Timeline transcript={transcript} collapsed={collapsed} onToggle={() => setCollapsed(state !== 'collapsed')} />
    </div>
  );
}

/** Scrolls the list just enough that its current row is whole in view. */
function keepCurrentInView(box: HTMLElement): void {
  const row = box.querySelector<HTMLElement>('.lab-event.is-current');
  if (row === null) return;
  const top = row.offsetTop - box.offsetTop;
  if (top < box.scrollTop || top + row.offsetHeight > box.scrollTop + box.clientHeight)
    box.scrollTop = top + row.offsetHeight - box.clientHeight;
}

type RaceMark = 'deciding' | 'winner' | 'loser';

/** Predict's reveal on the timeline: past the race point, the deciding event, the winning contender and the greyed loser, by index. */
function useRaceMarks(): Map<number, RaceMark> {
  const { race, phase } = usePredictRace();
  return useMemo(() => {
    const marks = new Map<number, RaceMark>();
    if (race === null || phase !== 'revealed') return marks;
    const winner = race.answers.find((answer) => answer.value === race.location.answer)?.winner ?? null;
    if (winner !== null) {
      marks.set(race.location.contenderIndexes[winner], 'winner');
      marks.set(race.location.contenderIndexes[winner === 0 ? 1 : 0], 'loser');
    }
    marks.set(race.location.decidingIndex, 'deciding');
    return marks;
  }, [race, phase]);
}

/** The events the replay has reached, as text: the diagram's accessible twin. Each row opens its event in the inspector. */
export function Timeline({
  transcript,
  collapsed = false,
  onToggle,
}: {
  transcript: Transcript;
  collapsed?: boolean | null;
  onToggle?(): void;
}) {
  const step = useRunStore((state) => state.step);
  const selectedSeq = useRunStore((state) => state.selectedSeq);
  const selectEvent = useRunStore((state) => state.selectEvent);
  const wording = useRunStore((state) => state.wording);
  const marks = useRaceMarks();
  const first = Math.max(0, step - TIMELINE_ROWS_MAX);
  const shown = transcript.events.slice(first, step);
  const scroller = useRef<HTMLDivElement>(null);
  // One Tab stop for the whole list (roving tabindex): the row last moved to, else the selected
  // row, else the current one; ↑ ↓ move between rows and Enter opens one.
  const [focusSeq, setFocusSeq] = useState<number | null>(null);
  const tabbableSeq =
    [focusSeq, selectedSeq, shown[shown.length - 1]?.seq].find(
      (seq) => seq != null && shown.some((event) => event.seq === seq),
    ) ?? null;
  const onListKeyDown = (event: KeyboardEvent<HTMLOListElement>) => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('.lab-event-button')];
    const from = buttons.findIndex((button) => button === document.activeElement);
    if (from < 0) return;
    event.preventDefault();
    const to = Math.max(0, Math.min(buttons.length - 1, from + (event.key === 'ArrowDown' ? 1 : -1)));
    const button = buttons[to];
    if (button === undefined) return;
    button.focus();
    setFocusSeq(Number(button.dataset.seq));
  };
  // Keep the current row in view inside the list (never by scrolling the page), at each step and
  // whenever the list changes height (resized, or filling the side column while Predict asks). It
  // reads the rows' places, so it waits for the next frame, which lays the page out anyway: read
  // at once, it would lay out the whole page inside the commit (tens of milliseconds when a long
  // run's answer first fills the page), and again in the frame.
  useEffect(() => {
    const box = scroller.current;
    if (box === null) return;
    const frame = requestAnimationFrame(() => keepCurrentInView(box));
    return () => cancelAnimationFrame(frame);
  }, [step, collapsed]);
  useEffect(() => {
    const box = scroller.current;
    if (box === null || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => keepCurrentInView(box));
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  const expanded = collapsed === null ? undefined : !collapsed;
  return (
    <section className="lab-timeline-section" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">
        {onToggle === undefined ? (
          'Timeline'
        ) : (
          <button type="button" className="lab-dock-toggle" aria-expanded={expanded ?? true} onClick={onToggle}>
            Timeline
          </button>
        )}
      </h2>
      {first > 0 && (
        <p className="lab-timeline-note">
          {formatNumber(first)} earlier events are not listed here; step back or use the diagram to see them.
        </p>
      )}
      {step === 0 && <p className="lab-timeline-note">No events yet: step forward to start the run.</p>}
      <div className="lab-timeline-scroll" ref={scroller}>
        <ol className="lab-timeline" aria-label="Timeline" start={first + 1} onKeyDown={onListKeyDown}>
          {shown.map((event, offset) => (
            <TimelineItem
              key={event.seq}
              event={event}
              text={eventTextAt(wording, transcript.events, event, step)}
              fateShown={fateShown(transcript.events, event, step)}
              race={marks.get(first + offset)}
              current={first + offset === step - 1}
              selected={event.seq === selectedSeq}
              tabbable={event.seq === tabbableSeq}
              onSelect={selectEvent}
            />
          ))}
        </ol>
      </div>
    </section>
  );
}

const TimelineItem = memo(function TimelineItem({
  event,
  text,
  fateShown,
  race,
  current,
  selected,
  tabbable,
  onSelect,
}: {
  event: LabEvent;
  text: string;
  /** False while the replay stands before the message's arrival: its being ignored is not shown yet. */
  fateShown: boolean;
  /** Predict's reveal: the deciding event, the winning and the losing contender. */
  race: RaceMark | undefined;
  current: boolean;
  selected: boolean;
  /** The row that holds the list's one Tab stop. */
  tabbable: boolean;
  onSelect(seq: number): void;
}) {
  const ignored =
    (fateShown && 'ignoredBy' in event && event.ignoredBy !== undefined) || ('lost' in event && event.lost === true);
  const failed = event.kind === 'sql' && !event.ok;
  const className = [
    'lab-event',
    `kind-${event.kind}`,
    ignored ? 'is-ignored' : '',
    failed ? 'is-failed' : '',
    current ? 'is-current' : '',
    selected ? 'is-selected' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <li className={className} aria-current={current ? 'step' : undefined} data-race={race}>
      <button
        type="button"
        className="lab-event-button"
        tabIndex={tabbable ? 0 : -1}
        data-seq={event.seq}
        onClick={() => onSelect(event.seq)}
      >
        <span className="lab-event-at">{event.atMs} ms</span>
        {/* The timeline lives in the dock, one line a row: the kind is for screen readers (the sentence and the inspector show it). */}
        <span className="lab-event-sep visually-hidden"> · </span>
        <span className="lab-event-kind visually-hidden">{event.kind}</span>
        <span className="lab-event-sep visually-hidden"> · </span>
        {/* Docked, a row is one line cut with an ellipsis; the whole sentence shows on hover. */}
        <span className="lab-event-text" title={text}>
          {text}
        </span>
      </button>
    </li>
  );
});
