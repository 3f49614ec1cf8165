import { useEffect, useRef } from 'react';
import { FAULT_DELAY_MS, useRunStore, type FaultKind, type RunState } from '../../store/runStore';
import { selectedKind } from './selectors';

type Fault = { kind: FaultKind; label: string; description: string };

const FAULTS: readonly Fault[] = [
  { kind: 'drop', label: 'Drop', description: 'the network loses this message' },
  {
    kind: 'delay',
    label: 'Delay',
    description: `this message arrives ${FAULT_DELAY_MS} ms later (what follows on its channel waits behind it)`,
  },
  { kind: 'duplicate', label: 'Duplicate', description: 'the network delivers this message twice' },
];
const CRASH: Fault = {
  kind: 'crash',
  label: 'Crash after COMMIT',
  description: 'the server crashes after COMMIT, before this response leaves, and restarts from its SQLite file',
};
const WITH_CRASH: readonly Fault[] = [...FAULTS, CRASH];

/** Crash applies where the server keeps a SQLite file (ledger and task scenarios), to a response it sends. */
const faultsFor =
  (seq: number) =>
  (state: RunState): readonly Fault[] => {
    const kind = selectedKind(state);
    if (kind !== 'ledger' && kind !== 'task') return FAULTS;
    const events = state.transcript?.events ?? [];
    const event = events[seq]?.seq === seq ? events[seq] : events.find((candidate) => candidate.seq === seq);
    const response = event?.kind === 'message' && event.from === 'server' && !('method' in event.message);
    return response ? WITH_CRASH : FAULTS;
  };

/**
 * A message's context menu in the diagram: Drop, Delay, Duplicate re-run the scenario from
 * the same seed with that fault on this message; the link carries it. On a ledger or task scenario a
 * server's response also offers Crash after COMMIT. Arrow keys move, Escape closes.
 */
export function FaultMenu({ seq, x, y, onClose }: { seq: number; x: number; y: number; onClose(): void }) {
  const injectFault = useRunStore((state) => state.injectFault);
  const faults = useRunStore(faultsFor(seq));
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    menu.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    const away = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node)) onClose();
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [onClose]);
  const onKeyDown = (event: React.KeyboardEvent) => {
    const items = [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') onClose();
    else if (event.key === 'ArrowDown') items[(at + 1) % items.length]?.focus();
    else if (event.key === 'ArrowUp') items[(at - 1 + items.length) % items.length]?.focus();
    else return;
    event.preventDefault();
    event.stopPropagation();
  };
  return (
    <div
      ref={menu}
      className="lab-fault-menu"
      role="menu"
      aria-label={`Faults for message ${seq}`}
      style={{ left: x, top: y }}
      onKeyDown={onKeyDown}
    >
      {faults.map((fault) => (
        <button
          key={fault.kind}
          type="button"
          role="menuitem"
          title={fault.description}
          onClick={() => {
            onClose();
            injectFault(fault.kind, seq);
          }}
        >
          {fault.label}
        </button>
      ))}
    </div>
  );
}

/** The keyboard way to the same faults: buttons under the message the inspector shows. */
export function FaultButtons({ seq }: { seq: number }) {
  const injectFault = useRunStore((state) => state.injectFault);
  const faults = useRunStore(faultsFor(seq));
  return (
    <div className="lab-fault-buttons" role="group" aria-label="Inject a fault on this message">
      {faults.map((fault) => (
        <button
          key={fault.kind}
          type="button"
          className="lab-button lab-small-button"
          title={fault.description}
          onClick={() => injectFault(fault.kind, seq)}
        >
          {fault.label}
        </button>
      ))}
    </div>
  );
}
