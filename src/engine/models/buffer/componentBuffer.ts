import type { BufferComponent, BufferItem, ComponentClock, ComponentProbe } from '../../core/components';
import { LabError } from '../../core/errors';
import type { RequestId } from '../../core/jsonrpc';
import type { FinalEntry, ProgressEntry, PushReport, SseEntry } from './buffer';
import type { NaiveReport } from './naiveQueue';

/**
 * A student's bounded SSE buffer (the `buffer` exercise) in the place of BoundedSseBuffer. The adapter
 * keeps a shadow of what the buffer says it holds, from what `offer` answered, and reads what `take`
 * returns as the truth: an item the shadow held that never comes out was dropped. It reports every
 * statement of the contract the buffer breaks (docs/requirements.md BF-1 … BF-6), and otherwise answers the model as
 * the lab's own buffer does, so the run goes on and shows what the student's buffer did.
 */
export const BUFFER_STATEMENTS = [
  'within-capacity',
  'final-never-dropped',
  'coalesce-adjacent',
  'refuse-only-when-full-of-finals',
  'drop-marked',
] as const;
export type BufferStatement = (typeof BUFFER_STATEMENTS)[number];

function describe(entry: SseEntry | undefined): string {
  if (entry === undefined) return 'nothing';
  return entry.kind === 'progress'
    ? `progress ${entry.progress} of ${entry.token}`
    : `the final response of #${String(entry.requestId)}`;
}

function toItem(entry: SseEntry, total: number): BufferItem {
  return entry.kind === 'progress'
    ? { kind: 'progress', token: String(entry.token), progress: entry.progress, total }
    : { kind: 'final', requestId: Number(entry.requestId), message: entry.message };
}

function matches(entry: SseEntry, item: BufferItem): boolean {
  if (entry.kind === 'progress')
    return item.kind === 'progress' && item.token === String(entry.token) && item.progress === entry.progress;
  return item.kind === 'final' && item.requestId === Number(entry.requestId);
}

const key = (id: RequestId): string => `${typeof id}:${String(id)}`;

export class ComponentBuffer {
  /**
   * What the buffer was given and has not yet given back, oldest first. A drop it declared
   * ('dropped-oldest') is not guessed at: `pendingDrops` counts them, and `take` settles which items
   * went (those it skips). So occupancy is `shadow.length - pendingDrops`.
   */
  private readonly shadow: SseEntry[] = [];
  private pendingDrops = 0;
  private readonly refetch = new Map<string, RequestId>();
  /** A progress item was dropped: the next item `take` returns must carry `needsRefetch: true`. */
  private dropPending = false;
  maxOccupancyEvents = 0;
  droppedEvents = 0;
  coalescedEvents = 0;
  refusedPushes = 0;

  constructor(
    readonly capacityEvents: number,
    private readonly total: number,
    private readonly component: BufferComponent,
    private readonly probe: ComponentProbe,
    private readonly clock: ComponentClock,
    /** Records an item found lost when `take` passed it by (the model writes it into the transcript). */
    private readonly onLost: (entry: SseEntry, reason: string) => void = () => undefined,
  ) {}

  get occupancyEvents(): number {
    return this.shadow.length - this.pendingDrops;
  }

  get needsRefetch(): boolean {
    return this.refetch.size > 0;
  }

  needsRefetchFor(requestId: RequestId): boolean {
    return this.refetch.has(key(requestId));
  }

  private breach(statement: BufferStatement, explanation: string): void {
    this.probe.breach(statement, explanation, this.clock);
  }

  private markDropped(entry: ProgressEntry): void {
    this.droppedEvents += 1;
    this.dropPending = true;
    if (!this.refetch.has(key(entry.requestId))) this.refetch.set(key(entry.requestId), entry.requestId);
  }

  push(entry: SseEntry): PushReport | NaiveReport {
    const offered = `offer(${describe(entry)})`;
    const result = this.component.offer(toItem(entry, this.total));
    const tail = this.shadow[this.shadow.length - 1];
    const sameToken =
      tail !== undefined && tail.kind === 'progress' && entry.kind === 'progress' && tail.token === entry.token;
    const held = this.occupancyEvents;
    const full = held >= this.capacityEvents;
    let report: PushReport | NaiveReport;
    switch (result) {
      case 'queued':
        if (sameToken && this.pendingDrops === 0)
          this.breach(
            'coalesce-adjacent',
            `${offered} answered 'queued', but the newest held item is ${describe(tail)}: progress for the same token must replace it ('coalesced')`,
          );
        this.shadow.push(entry);
        if (full)
          this.breach(
            'within-capacity',
            `${offered} answered 'queued' with ${held} of ${this.capacityEvents} slots already taken: the buffer now holds ${held + 1} items, over its capacity`,
          );
        report = { action: 'enqueued', occupancyEvents: this.occupancyEvents };
        break;
      case 'coalesced':
        report = this.coalesced(entry, offered, tail, held, sameToken);
        break;
      case 'dropped-oldest': {
        // Which item went is settled by take(); the event names the item a correct buffer drops.
        // Items already owed to earlier declared drops are passed over: a correct buffer dropped its oldest progress each time.
        const guess =
          this.shadow.filter((candidate) => candidate.kind === 'progress')[this.pendingDrops] ??
          (entry.kind === 'progress' ? entry : undefined);
        this.shadow.push(entry);
        this.pendingDrops += 1;
        if (guess === undefined || guess.kind !== 'progress') {
          // Full of final responses and the item is another one: nothing may go, yet one did.
          const oldest = this.shadow[0] as FinalEntry;
          report = { action: 'dropped-final', dropped: oldest, occupancyEvents: this.occupancyEvents };
          break;
        }
        this.markDropped(guess);
        report =
          guess === entry
            ? { action: 'dropped-incoming', dropped: guess, occupancyEvents: this.occupancyEvents }
            : { action: 'dropped-oldest', dropped: guess, occupancyEvents: this.occupancyEvents };
        break;
      }
      case 'refused':
        return this.refused(entry, offered, held, full);
      default: {
        // Every answer is named above; the exercise's adapter refuses any other before it gets here.
        const _: never = result;
        throw new LabError(
          'LAB050',
          `${offered} answered ${JSON.stringify(_)}; it must answer 'queued', 'coalesced', 'dropped-oldest' or 'refused'`,
        );
      }
    }
    this.maxOccupancyEvents = Math.max(this.maxOccupancyEvents, this.occupancyEvents);
    return report;
  }

  /** The component answered 'coalesced': right when the newest held item is progress for the same token. */
  private coalesced(
    entry: SseEntry,
    offered: string,
    tail: SseEntry | undefined,
    held: number,
    sameToken: boolean,
  ): PushReport | NaiveReport {
    if (tail === undefined || held === 0) {
      this.breach('coalesce-adjacent', `${offered} answered 'coalesced', but the buffer held nothing to replace`);
      this.shadow.push(entry);
      return { action: 'enqueued', occupancyEvents: this.occupancyEvents };
    }
    this.shadow[this.shadow.length - 1] = entry;
    if (sameToken) {
      this.coalescedEvents += 1;
      return { action: 'coalesced', replaced: tail as ProgressEntry, occupancyEvents: this.occupancyEvents };
    }
    this.breach(
      'coalesce-adjacent',
      `${offered} answered 'coalesced', replacing ${describe(tail)}: only progress for the same token may be replaced`,
    );
    if (tail.kind === 'final') {
      this.droppedEvents += 1;
      this.breach(
        'final-never-dropped',
        `${offered} replaced the final response of #${String(tail.requestId)} ('coalesced'): it is gone, and its client can never learn the outcome`,
      );
      return { action: 'dropped-final', dropped: tail, occupancyEvents: this.occupancyEvents };
    }
    this.markDropped(tail);
    return { action: 'dropped-oldest', dropped: tail, occupancyEvents: this.occupancyEvents };
  }

  /** The component answered 'refused': right only when the buffer is full of final responses and the item is one too. */
  private refused(entry: SseEntry, offered: string, held: number, full: boolean): PushReport | NaiveReport {
    const progressHeld = this.shadow.find((candidate) => candidate.kind === 'progress');
    if (!full)
      this.breach(
        'refuse-only-when-full-of-finals',
        `${offered} answered 'refused' with ${held} of ${this.capacityEvents} slots taken: there was room`,
      );
    else if (progressHeld !== undefined && this.pendingDrops === 0)
      this.breach(
        'refuse-only-when-full-of-finals',
        `${offered} answered 'refused', but the buffer held ${describe(progressHeld)}, which may be dropped to make room`,
      );
    else if (entry.kind === 'progress')
      this.breach(
        'refuse-only-when-full-of-finals',
        `${offered} answered 'refused': progress is never refused; with only final responses held, the incoming progress itself is the one to drop`,
      );
    this.refusedPushes += 1;
    return {
      action: 'refused',
      heldFinals: this.shadow.map((candidate) => candidate.requestId),
      occupancyEvents: this.occupancyEvents,
    };
  }

  shift(): SseEntry | undefined {
    const item = this.component.take();
    if (item === null) {
      // The buffer says it holds nothing: whatever the shadow still holds was dropped.
      for (const lost of this.shadow.splice(0)) this.lose(lost, 'take() answered null while it was still owed');
      this.pendingDrops = 0;
      return undefined;
    }
    const at = this.shadow.findIndex((candidate) => matches(candidate, item));
    if (at === -1) {
      const what =
        item.kind === 'progress'
          ? `progress ${String(item.progress)} of ${String(item.token)}`
          : `a final response for #${String(item.requestId)}`;
      throw new LabError(
        'LAB050',
        `take() returned ${what}, which the buffer does not hold (never offered, already taken, replaced, or changed); take() returns the items offered, oldest first`,
      );
    }
    for (const lost of this.shadow.splice(0, at))
      this.lose(lost, `take() skipped it and returned ${describe(this.shadow[0])}`);
    const taken = this.shadow.shift() as SseEntry;
    if (this.dropPending) {
      this.dropPending = false;
      if (item.needsRefetch !== true)
        this.breach(
          'drop-marked',
          `progress was dropped, but the next item take() returned (${describe(taken)}) does not carry needsRefetch: true, so the client never learns to refetch`,
        );
    }
    return taken;
  }

  /** An item the buffer never gave back: a declared drop settled, or one it lost without saying. */
  private lose(entry: SseEntry, how: string): void {
    const declared = this.pendingDrops > 0;
    if (declared) this.pendingDrops -= 1;
    // Where the buffer's answers named another item, the transcript now says which one really went.
    if (entry.kind === 'final' || !declared)
      this.onLost(
        entry,
        `the buffer never gave it back (${how})${entry.kind === 'final' ? ': a final response is gone, and its client can never learn the outcome (BF-4 forbids it)' : ''}`,
      );
    if (entry.kind === 'final') {
      this.droppedEvents += 1;
      this.breach(
        'final-never-dropped',
        `the final response of #${String(entry.requestId)} was dropped (${how}): its client can never learn the outcome`,
      );
    } else if (!declared) {
      this.markDropped(entry);
    }
  }
}
