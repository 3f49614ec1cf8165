import { memo } from 'react';
import { useLabStore, type LabEvent, type Transcript } from '../../store/labStore';
import { eventText, formatNumber } from '../format';

/** A limit on the rows drawn (every step re-lays them out): a long run lists the latest ones, the diagram holds them all. */
export const TIMELINE_ROWS_MAX = 120;

/** The events the replay has reached, as text: the diagram's accessible twin. Each row opens its event in the inspector. */
export function Timeline({ transcript }: { transcript: Transcript }) {
  const step = useLabStore((state) => state.step);
  const selectedSeq = useLabStore((state) => state.selectedSeq);
  const selectEvent = useLabStore((state) => state.selectEvent);
  const wording = useLabStore((state) => state.wording);
  const first = Math.max(0, step - TIMELINE_ROWS_MAX);
  const shown = transcript.events.slice(first, step);
  return (
    <section className="lab-timeline-section" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline</h2>
      {first > 0 && (
        <p className="lab-timeline-note">
          {formatNumber(first)} earlier events are not listed here; step back or use the diagram to see them.
        </p>
      )}
      {step === 0 && <p className="lab-timeline-note">No events yet: step forward to start the run.</p>}
      <ol className="lab-timeline" aria-label="Timeline" start={first + 1}>
        {shown.map((event, offset) => (
          <TimelineItem key={event.seq} event={event} text={eventText(wording, event)} current={first + offset === step - 1} selected={event.seq === selectedSeq} onSelect={selectEvent} />
        ))}
      </ol>
    </section>
  );
}

const TimelineItem = memo(function TimelineItem({ event, text, current, selected, onSelect }: { event: LabEvent; text: string; current: boolean; selected: boolean; onSelect(seq: number): void }) {
  const ignored = ('ignoredBy' in event && event.ignoredBy !== undefined) || ('lost' in event && event.lost === true);
  const failed = event.kind === 'sql' && !event.ok;
  const className = ['lab-event', `kind-${event.kind}`, ignored ? 'is-ignored' : '', failed ? 'is-failed' : '', current ? 'is-current' : '', selected ? 'is-selected' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <li className={className} aria-current={current ? 'step' : undefined}>
      <button type="button" className="lab-event-button" onClick={() => onSelect(event.seq)}>
        <span className="lab-event-at">{event.atMs} ms</span>
        <span className="lab-event-sep"> · </span>
        <span className="lab-event-kind">{event.kind}</span>
        <span className="lab-event-sep"> · </span>
        <span className="lab-event-text">{text}</span>
      </button>
    </li>
  );
});
