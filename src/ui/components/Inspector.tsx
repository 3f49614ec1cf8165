import type { Transcript } from '../../engine';
import { useRunStore, type LabEvent } from '../../store/runStore';
import { eventAsOfStep, eventTextAt, formatMs } from '../format';
import { FaultButtons } from './lazyParts';

/**
 * The exact record behind one event: for a wire message, the JSON-RPC object exactly as sent; for
 * anything else, the event as the engine recorded it. Shows the event the user picked (in the
 * diagram or the timeline) while the replay has reached it, otherwise the current step's event.
 */
export function Inspector({ transcript }: { transcript: Transcript }) {
  const step = useRunStore((state) => state.step);
  const selectedSeq = useRunStore((state) => state.selectedSeq);
  const selectEvent = useRunStore((state) => state.selectEvent);
  const { events } = transcript;
  const selectedIndex = selectedSeq === null ? -1 : events.findIndex((event) => event.seq === selectedSeq);
  const picked = selectedIndex >= 0 && selectedIndex < step;
  const index = picked ? selectedIndex : step - 1;
  const event = events[index];

  return (
    <section className="lab-inspector" aria-labelledby="inspector-heading" data-seq={event?.seq}>
      <div className="lab-inspector-head">
        <h2 id="inspector-heading">Inspector</h2>
        {picked && (
          <button type="button" className="lab-button lab-small-button" onClick={() => selectEvent(null)}>
            Follow the current step
          </button>
        )}
      </div>
      <p className="lab-inspector-what">
        {event === undefined
          ? 'Nothing has happened yet. Step forward, or pick a message in the diagram.'
          : `${picked ? 'Picked' : 'Current'}: event ${index + 1} of ${events.length}, at ${formatMs(event.atMs)}`}
      </p>
      {event !== undefined && <EventDetails event={event} events={events} step={step} />}
    </section>
  );
}

function EventDetails({ event, events, step }: { event: LabEvent; events: LabEvent[]; step: number }) {
  const wording = useRunStore((state) => state.wording);
  // What the replay has not reached stays off (a message's fate before it arrives).
  const text = eventTextAt(wording, events, event, step);
  const recorded = eventAsOfStep(events, event, step);
  if (event.kind !== 'message') {
    return (
      <>
        <p className="lab-inspector-text">{text}</p>
        <h3 className="lab-inspector-sub">Event as recorded</h3>
        <pre className="lab-code" tabIndex={0} aria-label="Event as recorded (JSON)">
          {JSON.stringify(recorded, null, 2)}
        </pre>
      </>
    );
  }
  // The receiver's verdict is known once the replay reaches its delivery (or loss).
  const settledAt = events.findIndex(
    (later) => (later.kind === 'delivered' || later.kind === 'message-lost') && later.messageSeq === event.seq,
  );
  const settled = settledAt >= 0 ? settledAt < step : (events[step - 1]?.atMs ?? 0) >= event.arrivesAtMs;
  const fate = !settled
    ? `in flight, due at ${formatMs(event.arrivesAtMs)}`
    : event.lost === true
      ? `lost: ${event.reason ?? ''}`
      : event.ignoredBy !== undefined
        ? `arrived at ${formatMs(event.arrivesAtMs)}; ignored by the ${event.ignoredBy}: ${event.reason ?? ''}`
        : `arrived at ${formatMs(event.arrivesAtMs)}`;
  return (
    <>
      <dl className="lab-inspector-facts">
        <dt>From</dt>
        <dd>{event.from}</dd>
        <dt>To</dt>
        <dd>{event.to}</dd>
        <dt>Channel</dt>
        <dd>{event.channel}</dd>
        <dt>Sent</dt>
        <dd>{formatMs(event.atMs)}</dd>
        <dt>Fate</dt>
        <dd>{fate}</dd>
        {event.fault !== undefined && (
          <>
            <dt>Fault</dt>
            <dd>
              {event.duplicateOf !== undefined
                ? `the network's duplicate of message ${event.duplicateOf}`
                : event.fault}
            </dd>
          </>
        )}
      </dl>
      {event.lost !== true && event.duplicateOf === undefined && <FaultButtons seq={event.seq} />}
      <h3 className="lab-inspector-sub">JSON-RPC message, exactly as sent</h3>
      <pre className="lab-code" tabIndex={0} aria-label="JSON-RPC message" data-testid="message-json">
        {JSON.stringify(event.message, null, 2)}
      </pre>
    </>
  );
}
