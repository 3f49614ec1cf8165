import { fail } from '../core/assert';
import type { ComponentClock } from '../core/components';
import type { RequestId } from '../core/jsonrpc';
import type { Actor, EventHandle, Label, LabelOf } from '../core/scheduler';
import type { Unstamped } from '../core/transcript';
import type { Stamp } from '../core/wire';
import type { RequestCoordinator } from './coordinator';
import type { DeadlineName, McpEvent } from './events';

/** What the MCP rules need of a simulation: a Sim whose events include the MCP events. */
export interface McpSim {
  readonly nowMs: number;
  at(atMs: number, actor: Actor, label: Label, run: () => void): EventHandle;
  at<A>(atMs: number, actor: Actor, label: LabelOf<A>, run: (arg: A) => void, arg: A): EventHandle;
  cancel(handle: EventHandle | null | undefined): boolean;
  record(event: Unstamped<McpEvent>): unknown;
  /** For the events recorded on every progress: built with their stamps in place (one object each). */
  stamp(): Readonly<Stamp>;
  append(event: McpEvent): unknown;
  /** What a student's component adapter reads of the run (core/components.ts). */
  componentClock(): ComponentClock;
}

/** Both deadlines, in the order they are disarmed and followed (one list, not one made per call). */
const DEADLINES: readonly DeadlineName[] = ['idle', 'max'];

/**
 * The client's two deadlines for one request (RC-1, RC-2): the idle deadline that useful activity
 * resets and the maximum that nothing moves. Each arm, reset, disarm and firing is recorded; the
 * model decides what firing means (abandon, then the transport's cancellation signal).
 */
export class ClientDeadlines {
  /**
   * Each deadline's queued firing while armed. Two fields, not a record written as `{}`: that literal
   * lives as long as the request and holds its queued events, and through them the run; V8 came to
   * allocate such literals in its old generation, where a dead one kept its run alive.
   */
  private idleHandle: EventHandle | undefined = undefined;
  private maxHandle: EventHandle | undefined = undefined;
  /**
   * Whether a student's component said the request has no idle (no maximum) deadline (null): never armed
   * (see followComponent). Two flags, not a set: every run of every request makes its deadlines.
   */
  private idleAbsent = false;
  private maxAbsent = false;

  constructor(
    private readonly sim: McpSim,
    private readonly coordinator: RequestCoordinator,
    private readonly requestId: RequestId,
    private readonly onFire: () => void,
  ) {}

  /** Arms the idle deadline only: a client with no maximum timer of its own (the TypeScript SDK 1.x). */
  armIdleOnly(idleReason: string): void {
    this.arm('idle', this.coordinator.idleDueAtMs(this.requestId), 'armed', idleReason);
  }

  /** A student's component answered no such deadline (`absent`), or answered one again. */
  markAbsent(deadline: DeadlineName, absent: boolean): void {
    if (deadline === 'idle') this.idleAbsent = absent;
    else this.maxAbsent = absent;
  }

  private handle(deadline: DeadlineName): EventHandle | undefined {
    return deadline === 'idle' ? this.idleHandle : this.maxHandle;
  }

  private setHandle(deadline: DeadlineName, handle: EventHandle | undefined): void {
    if (deadline === 'idle') this.idleHandle = handle;
    else this.maxHandle = handle;
  }

  private absent(deadline: DeadlineName): boolean {
    return deadline === 'idle' ? this.idleAbsent : this.maxAbsent;
  }

  /** Whether a deadline is still armed. */
  armed(deadline: DeadlineName): boolean {
    return this.handle(deadline) !== undefined;
  }

  /** Arms both deadlines from the coordinator's due times (at the request's start). */
  armBoth(idleReason: string, maxReason: string): void {
    this.arm('idle', this.coordinator.idleDueAtMs(this.requestId), 'armed', idleReason);
    this.arm('max', this.coordinator.maxDueAtMs(this.requestId), 'armed', maxReason);
  }

  /** Progress arrived: the idle deadline restarts; the maximum stays where it was. */
  resetIdle(reason: string): void {
    this.arm('idle', this.coordinator.idleDueAtMs(this.requestId), 'reset', reason);
    // Paired with the coordinator (RC-2): the maximum the scheduler holds is still the one fixed at the start.
    const max = this.maxHandle;
    if (max !== undefined && max.atMs !== this.coordinator.maxDueAtMs(this.requestId))
      fail(`the armed maximum (${max.atMs} ms) drifted from the request's fixed maximum`);
  }

  /**
   * The a catalogued failure mode "progress resets every deadline": progress restarts the maximum
   * deadline too, so steady progress keeps hung work alive past its budget. Only the failure
   * setting calls this; RC-2 forbids it.
   */
  resetBothFailureMode(reason: string): void {
    this.arm('idle', this.coordinator.idleDueAtMs(this.requestId), 'reset', reason);
    this.arm(
      'max',
      this.coordinator.maxDueAtMs(this.requestId),
      'reset',
      `${reason}; the absolute budget moves too (a catalogued failure mode)`,
    );
  }

  /**
   * A student's deadlines answered after accepted progress (the coordinator now holds their due times):
   * each deadline whose due time moved is re-armed there (the idle one, as a rule; the maximum only if
   * the component moved it), and one the component answered none for is disarmed.
   */
  followComponent(reason: string): void {
    for (const deadline of DEADLINES) {
      const handle = this.handle(deadline);
      const dueAtMs =
        deadline === 'idle'
          ? this.coordinator.idleDueAtMs(this.requestId)
          : this.coordinator.maxDueAtMs(this.requestId);
      if (this.absent(deadline) || handle === undefined || handle.atMs !== dueAtMs)
        this.arm(
          deadline,
          dueAtMs,
          handle === undefined ? 'armed' : 'reset',
          deadline === 'max' ? `${reason}; the student's deadlines moved the maximum` : reason,
        );
    }
  }

  /** When the idle deadline is due, if armed. */
  idleDueAtMs(): number | undefined {
    return this.idleHandle?.atMs;
  }

  disarm(reason: string): void {
    for (const deadline of DEADLINES) {
      const handle = this.handle(deadline);
      if (handle === undefined) continue;
      if (this.sim.cancel(handle))
        this.sim.record({
          kind: 'deadline',
          requestId: this.requestId,
          deadline,
          action: 'disarmed',
          dueAtMs: handle.atMs,
          reason,
        });
      this.setHandle(deadline, undefined);
    }
  }

  /** Marks a deadline fired (the coordinator chose which); records it. */
  fired(deadline: DeadlineName, reason: string): void {
    this.setHandle(deadline, undefined);
    this.sim.record({
      kind: 'deadline',
      requestId: this.requestId,
      deadline,
      action: 'fired',
      dueAtMs: this.sim.nowMs,
      reason,
    });
  }

  private arm(deadline: DeadlineName, dueAtMs: number, action: 'armed' | 'reset', reason: string): void {
    if (this.absent(deadline)) {
      // A student's component answered no such deadline: nothing is armed (what was armed goes).
      const handle = this.handle(deadline);
      if (handle !== undefined && this.sim.cancel(handle))
        this.sim.record({
          kind: 'deadline',
          requestId: this.requestId,
          deadline,
          action: 'disarmed',
          dueAtMs: handle.atMs,
          reason: `${reason}; the student's deadlines answered no ${deadline} deadline`,
        });
      this.setHandle(deadline, undefined);
      return;
    }
    if (!(dueAtMs >= this.sim.nowMs))
      fail(`the ${deadline} deadline is due at ${dueAtMs} ms, before now (${this.sim.nowMs} ms)`);
    this.sim.cancel(this.handle(deadline));
    // Re-armed on every progress: the event is built with its stamps (no copy).
    const stamp = this.sim.stamp();
    this.sim.append({
      seq: stamp.seq,
      atMs: stamp.atMs,
      causeSeq: stamp.causeSeq,
      kind: 'deadline',
      requestId: this.requestId,
      deadline,
      action,
      dueAtMs,
      reason,
    });
    // A constant label: re-arming on every progress builds no string.
    this.setHandle(
      deadline,
      this.sim.at(dueAtMs, 'client', deadline === 'idle' ? 'idle deadline' : 'max deadline', this.onFire),
    );
  }
}

/** Records the terminal event if the single terminal state was set since `hadTerminal` was read. */
export function noteTerminal(
  sim: McpSim,
  coordinator: RequestCoordinator,
  requestId: RequestId,
  hadTerminal: boolean,
  reason: string,
): void {
  const terminal = coordinator.terminal(requestId);
  if (hadTerminal || terminal === null) return;
  sim.record({ kind: 'terminal', requestId, state: terminal.state, reason });
}
