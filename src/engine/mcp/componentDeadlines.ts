import type {
  ComponentClock,
  ComponentProbe,
  DeadlinesComponent,
  DeadlinesDue,
  DeadlinesStart,
} from '../core/components';

/**
 * A student's deadlines (the `deadlines` exercise) in the place of the lab's own (the coordinator's
 * idle and maximum due times). The adapter keeps the due times RC-1 and RC-2 give (idle: the last
 * accepted progress, or the start, plus idleTimeoutMs; max: the start plus maxTimeoutMs) and reports
 * every answer that differs; the client then follows what the component answered (clientRequest.ts),
 * so the run shows what its deadlines do: a maximum moved by progress lets hung work run on.
 */
export const DEADLINE_STATEMENTS = [
  'armed-at-start',
  'idle-reset-by-progress',
  'max-never-moves',
  'token-keeps-deadlines',
] as const;
export type DeadlineStatement = (typeof DEADLINE_STATEMENTS)[number];

const due = (value: number | null): string => (value === null ? 'none' : `${value} ms`);

export class ComponentDeadlines {
  private readonly component: DeadlinesComponent;

  constructor(
    factory: (start: DeadlinesStart, clock: ComponentClock) => DeadlinesComponent,
    private readonly start: DeadlinesStart,
    private readonly probe: ComponentProbe,
    private readonly clock: ComponentClock,
  ) {
    this.component = factory(start, clock);
  }

  private breach(statement: DeadlineStatement, explanation: string): void {
    this.probe.breach(statement, explanation, this.clock);
  }

  private get maxDueMs(): number {
    return this.start.startedAtMs + this.start.maxTimeoutMs;
  }

  /** A missing deadline: RC-4 when the request asked for progress, RC-1 otherwise. */
  private missing(which: 'idle' | 'max', when: string, otherwise: DeadlineStatement): void {
    const token = this.start.progressToken;
    if (token !== null)
      this.breach(
        'token-keeps-deadlines',
        `${when} answered no ${which} deadline (${which}: null) for a request with progressToken ${JSON.stringify(token)}: a progress token never makes a timeout infinite; the server may send no progress at all`,
      );
    else
      this.breach(
        otherwise,
        `${when} answered no ${which} deadline (${which}: null): every request has an idle and a maximum deadline`,
      );
  }

  /** The due times at the request's start (RC-1). */
  atStart(): DeadlinesDue {
    const answered = this.component.dueAtMs();
    const when = `at the start (${this.start.startedAtMs} ms), dueAtMs()`;
    const idleDue = this.start.startedAtMs + this.start.idleTimeoutMs;
    if (answered.idle === null) this.missing('idle', when, 'armed-at-start');
    else if (answered.idle !== idleDue)
      this.breach(
        'armed-at-start',
        `${when} answered idle ${due(answered.idle)}; the idle deadline is due idleTimeoutMs (${this.start.idleTimeoutMs} ms) after the start: ${idleDue} ms`,
      );
    if (answered.max === null) this.missing('max', when, 'armed-at-start');
    else if (answered.max !== this.maxDueMs)
      this.breach(
        'armed-at-start',
        `${when} answered max ${due(answered.max)}; the maximum deadline is due maxTimeoutMs (${this.start.maxTimeoutMs} ms) after the start: ${this.maxDueMs} ms`,
      );
    return answered;
  }

  /** Progress the client accepted at `atMs` (RC-2): the idle deadline restarts, the maximum stays. */
  progress(atMs: number): DeadlinesDue {
    const answered = this.component.onProgress(atMs);
    const when = `onProgress(${atMs})`;
    const idleDue = atMs + this.start.idleTimeoutMs;
    if (answered.idle === null) this.missing('idle', when, 'idle-reset-by-progress');
    else if (answered.idle !== idleDue)
      this.breach(
        'idle-reset-by-progress',
        `${when} answered idle ${due(answered.idle)}; progress restarts the idle deadline: due idleTimeoutMs (${this.start.idleTimeoutMs} ms) after it, at ${idleDue} ms`,
      );
    if (answered.max === null) this.missing('max', when, 'max-never-moves');
    else if (answered.max !== this.maxDueMs)
      this.breach(
        'max-never-moves',
        `${when} answered max ${due(answered.max)}; the maximum deadline counts from the start and nothing moves it: still ${this.maxDueMs} ms (a hung worker that keeps sending progress would otherwise run forever)`,
      );
    return answered;
  }
}
