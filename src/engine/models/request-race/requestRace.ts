import { assert } from '../../core/assert';
import type { RequestId } from '../../core/jsonrpc';
import { defineModel, type Lab, type ResolvedRun } from '../../core/model';
import { pinnedChooser } from '../../core/scheduler';
import type { Sim } from '../../core/sim';
import type { MessageEvent } from '../../core/transcript';
import { ClientRequest } from '../../mcp/clientRequest';
import { RequestCoordinator } from '../../mcp/coordinator';
import { mcpSim } from '../../mcp/mcpSim';
import {
  callToolResultResponse,
  cancelledNotification,
  progressNotification,
  type JsonRpcMessage,
} from '../../mcp/protocol';
import { ServerRequest } from '../../mcp/serverRequest';
import { ComponentCoordinator } from './componentCoordinator';
import { endResponseStream, sendOn } from '../../mcp/stream';
import { summarizeMessage } from '../../mcp/summary';
import {
  arrivedOnClosedStream,
  cancelHow,
  deadlineWording,
  maxFoundOnProgress,
  responseSuppressed,
  userCancelled,
  workerWording,
} from '../../mcp/wording';
import { requestRaceSettingsSpec, type RequestRaceSettings } from './settings';
import type { ClientIgnore, RequestOutcome, RequestRaceEvent, RequestRaceScenario, ScriptStep } from './types';

export {
  requestRaceSettingsSpec,
  requestRaceDefaults,
  type RequestRaceSettings,
  type RequestRaceSettingKey,
} from './settings';

const USER_CANCEL_REASON = 'User closed the operation';
/** RC-7: the id a buggy client's cancellation names; no request ever has it in these scenarios. */
const UNKNOWN_REQUEST_ID = 99;
/** Each script step's event label, made once. */
const SCRIPT_LABELS: Readonly<Record<ScriptStep['do'], string>> = {
  call: 'script call',
  cancel: 'script cancel',
  'cancel-malformed': 'script cancel-malformed',
  'cancel-unknown': 'script cancel-unknown',
};
const NO_SCRIPT: readonly ScriptStep[] = Object.freeze([]);
/** Whether an ignore comes after the one before it in the list, by seq (`every`'s test, made once). */
const inSeqOrder = (ignore: ClientIgnore, index: number, ignores: readonly ClientIgnore[]): boolean =>
  index === 0 || (ignores[index - 1] as ClientIgnore).seq <= ignore.seq;

/**
 * One request between an MCP client and server over stdio or Streamable HTTP, on the virtual
 * clock: the client's deadlines (RC-1/RC-2), the server's worker with progress checkpoints (RC-3,
 * RC-4), the transport-specific cancellation signal (RC-5), and the cancel/complete race (RC-6 …
 * RC-8). clientProfile=ts-sdk-1.x swaps in the TypeScript SDK 1.x client (src/sdk/tsSdkProfile.ts lists each
 * behaviour and its source).
 */
export class RequestRace {
  readonly sim: Sim<RequestRaceEvent>;
  readonly coordinator: RequestCoordinator;
  /** The coordinator exercise: the student's server-side coordinator, which is then `coordinator` too; null: the lab's own. */
  private readonly student: ComponentCoordinator | null;
  private readonly settings: RequestRaceSettings;
  private readonly client: ClientRequest;
  private readonly server: ServerRequest;
  private called = false;
  private finalResponse = false;
  private workerChunks = 0;
  /** What the client dropped, as it dropped it (so the outcome needs no recorded events). */
  private readonly clientIgnores: ClientIgnore[] = [];
  /** ts-sdk-1.x: when progress found maxTotalTimeout exceeded and the client rejected the request locally. */
  private sdkGaveUpAtMs: number | null = null;
  /** The script `run` follows, and the index of its step that runs next. */
  private script: readonly ScriptStep[] = NO_SCRIPT;
  private scriptAt = 0;

  constructor(run: ResolvedRun<RequestRaceSettings>) {
    const s = (this.settings = run.settings);
    this.sim = mcpSim(run, { eventsMax: s.eventsMax, latency: s, record: run.record });
    const part = run.components?.coordinator;
    if (part !== undefined && run.components !== undefined) {
      const clock = this.sim.componentClock();
      this.student = new ComponentCoordinator(part(clock), run.components.probe, clock);
    } else {
      this.student = null;
    }
    this.coordinator = this.student ?? new RequestCoordinator();
    // The one object both sides use besides the wire: every event that reads or writes it names it.
    this.coordinator.reduceUnder(this.sim.scheduler.explorer);
    const { idleTimeoutMs, maxTimeoutMs, progressResetsMax } = s;
    const progressToken = s.progressToken ? `progress-${s.requestId}` : null;
    this.client = new ClientRequest(this.sim, this.coordinator, s.requestId, {
      idleTimeoutMs,
      maxTimeoutMs,
      progressToken,
      progressResetsMax,
      views: true,
      onDeadline: () => this.deadlineFires(),
      components: run.components,
    });
    const afterCancel =
      s.afterCancel === 'respond'
        ? 'this server marks it cancelled but neither stops the work nor suppresses the response (a catalogued failure mode)'
        : undefined;
    this.server = new ServerRequest(this.sim, this.coordinator, s.requestId, { views: true, afterCancel });
  }

  get events(): RequestRaceEvent[] {
    return this.sim.events;
  }

  private get id(): RequestId {
    assert(this.called, 'no request was started');
    return this.settings.requestId;
  }

  /** clientProfile=ts-sdk-1.x: the official TypeScript SDK 1.x client. */
  private get sdk(): boolean {
    return this.settings.clientProfile === 'ts-sdk-1.x';
  }

  /** The client's delivery: what it accepts or ignores, noting each ignore for the outcome. */
  private readonly toClient = (event: MessageEvent): string | null => {
    const reason = this.clientReceives(event);
    if (reason !== null)
      this.clientIgnores.push({
        seq: event.seq,
        atMs: event.arrivesAtMs,
        summary: summarizeMessage(event.message),
        reason,
      });
    return reason;
  };

  // ── client ───────────────────────────────────────────────────────────────────────────────────

  /** The client sends `tools/call` now and arms both deadlines (RC-1); the SDK 1.x only its `timeout`. */
  call(): void {
    assert(!this.called, 'this race models one request; call() was already made');
    this.called = true;
    const s = this.settings;
    this.client.callTool('generate_report', { quarter: '2026-Q3' }, () => this.serverReceivesCall());
    if (this.sdk) {
      this.client.deadlines.armIdleOnly(
        `the TypeScript SDK 1.x's \`timeout\` of ${s.idleTimeoutMs} ms (resetTimeoutOnProgress); it has no maximum timer: maxTotalTimeout of ${s.maxTimeoutMs} ms is checked only when progress arrives`,
      );
      return;
    }
    this.client.deadlines.armBoth(deadlineWording.idleArmed(s.idleTimeoutMs), deadlineWording.maxArmed(s.maxTimeoutMs));
  }

  private deadlineFires(): void {
    const s = this.settings;
    if (this.sdk && this.sdkGaveUpAtMs !== null) {
      // ts-sdk-1.x: the timer maxTotalTimeout's rejection never cleared (protocol.js:197, :470) cancels now, after the client gave up.
      this.client.deadlines.fired(
        'idle',
        `the SDK's \`timeout\` timer, left armed when maxTotalTimeout rejected the request at ${this.sdkGaveUpAtMs} ms, fires now and sends notifications/cancelled — ${this.sim.nowMs - this.sdkGaveUpAtMs} ms after the client gave up`,
      );
      this.sendCancellation('Request timed out');
      return;
    }
    // ts-sdk-1.x: the SDK's one timer (protocol.js:741 timeoutHandler → cancel()).
    const ended = this.sdk
      ? this.client.expire(() => deadlineWording.idleFired(s.idleTimeoutMs, "the SDK's `timeout` fires"), 'idle')
      : this.client.expire((fired) =>
          fired === 'max' ? deadlineWording.maxFired(s.maxTimeoutMs) : deadlineWording.idleFired(s.idleTimeoutMs),
        );
    if (ended !== null) this.sendCancellation(ended.reason);
  }

  /**
   * ts-sdk-1.x: progress arrived after maxTotalTimeout elapsed (protocol.js:462 → :196). The SDK
   * rejects the request locally and sends nothing; its `timeout` timer stays armed.
   */
  private sdkMaxExceeded(): string {
    const startedAtMs = this.coordinator.get(this.id)?.startedAtMs ?? 0;
    this.sdkGaveUpAtMs = this.sim.nowMs;
    const reason = deadlineWording.maxFired(
      this.settings.maxTimeoutMs,
      `the TypeScript SDK 1.x found it only now that progress arrived (${this.sim.nowMs - startedAtMs} ms elapsed); it rejects the request locally and sends nothing; its \`timeout\` timer stays armed`,
    );
    const ended = this.client.expire(() => reason, 'max', false);
    assert(ended?.deadline === 'max', 'the SDK finds maxTotalTimeout exceeded only once it is');
    // The client gave up: no response is owed to it any more (its cancellation comes later, from the timer).
    this.sim.wire.settle('client', this.id);
    return maxFoundOnProgress('the TypeScript SDK 1.x');
  }

  /** The user cancels now (RC-5). A request the client already settled has nothing left to cancel. */
  cancel(reason: string = USER_CANCEL_REASON): void {
    const verdict = this.client.abandon(userCancelled(reason, 'the client gives up on the request'));
    if (verdict.accepted) this.sendCancellation(reason, 'the user cancelled');
    else
      this.sim.record({
        kind: 'cancel-ignored',
        by: 'client',
        requestId: this.id,
        reason: `nothing to cancel: ${verdict.reason}`,
      });
  }

  /**
   * RC-7: a buggy client cancels a request id it never sent, or sends a cancellation with no requestId
   * (it breaks the schema on purpose, marked `malformed`); the server ignores either without error or reply.
   */
  private sendBuggyCancel(malformed: boolean): void {
    if (this.sim.http && this.settings.httpCancel !== 'post-notification' && !this.sdk) {
      // 2026-07-28 uses notifications/cancelled only on stdio; on Streamable HTTP a cancellation is the
      // close of a request's own response stream, which can be neither malformed nor about another request.
      const what = malformed
        ? 'a cancellation without a requestId'
        : `a cancellation of request ${String(UNKNOWN_REQUEST_ID)}, which this client never sent`;
      const why = `stdio-only: on Streamable HTTP the client cancels a request by closing that request's own response stream and POSTs no notifications/cancelled, so ${what} cannot be sent; nothing goes on the wire`;
      this.sim.record({
        kind: 'cancel-ignored',
        by: 'client',
        requestId: malformed ? null : UNKNOWN_REQUEST_ID,
        reason: why,
      });
      return;
    }
    const message: JsonRpcMessage = malformed
      ? {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { reason: 'a cancellation that names no request' },
        }
      : cancelledNotification(UNKNOWN_REQUEST_ID, 'a cancellation for a request this client never sent');
    const deliver = (event: MessageEvent): string | null =>
      this.server.acceptCancel('params' in event.message ? event.message.params : undefined, cancelHow.notified);
    sendOn(
      this.sim,
      'client',
      message,
      this.settings.requestId,
      deliver,
      malformed ? { malformed: 'params.requestId is missing; CancelledNotificationParams requires it' } : {},
    );
  }

  /** On Streamable HTTP a catalogued failure mode (and the TypeScript SDK 1.x's way) POSTs the cancellation, which is not the signal. */
  private sendCancellation(reason: string, closedWhy?: string): void {
    if (this.settings.httpCancel !== 'post-notification' && !this.sdk) {
      this.client.cancel(reason, this.server, { closedWhy });
      return;
    }
    this.client.cancel(reason, this.server, {
      post: () => {
        const why =
          "on Streamable HTTP the disconnect of the request's own response stream is the cancellation; a separately POSTed notifications/cancelled is not tied to it, so the request keeps running";
        this.sim.record({ kind: 'cancel-ignored', by: 'server', requestId: this.id, reason: why });
        return why;
      },
    });
  }

  private clientReceives(event: MessageEvent): string | null {
    const closedAtMs = this.client.closedStreamAtMs;
    if (closedAtMs !== null) return arrivedOnClosedStream(closedAtMs);
    const message = event.message;
    if (!('method' in message && message.method === 'notifications/progress')) return this.client.response();
    if (
      this.sdk &&
      this.coordinator.get(this.id)?.client === 'waiting' &&
      this.sim.nowMs >= this.coordinator.maxDueAtMs(this.id)
    )
      return this.sdkMaxExceeded();
    const resets = this.settings.progressResetsMax ? deadlineWording.everyReset : deadlineWording.idleReset;
    return this.client.progress(message.params?.progress as number, resets);
  }

  // ── server and its worker ────────────────────────────────────────────────────────────────────

  private serverReceivesCall(): null {
    const s = this.settings;
    this.student?.serverReceives(this.id, this.coordinator.get(this.id)?.progressToken ?? null);
    this.server.opened();
    const step = (chunk: number, _chunks: number, isLast: boolean): boolean =>
      isLast ? this.workerCompletes() : this.workerCheckpoint(chunk);
    this.workerChunks = this.server.startWorker(
      s.workMs,
      s.progressEveryMs,
      (chunks) => workerWording.started(s.workMs, chunks, workerWording.uninterruptible),
      step,
    ).chunks;
    return null;
  }

  /** The end of an uninterruptible chunk: the cancellation is observed here, or progress is sent. */
  private workerCheckpoint(chunk: number): boolean {
    // Once per checkpoint: the reason shares the progress message's text (kept flat when recorded).
    const progressText = this.sim.log.keepText(`chunk ${chunk} of ${this.workerChunks}`);
    const done = `${progressText} done`;
    if (this.student !== null) return this.studentCheckpoint(chunk, done);
    if (this.server.phase === 'cancelled') {
      // a catalogued failure mode (afterCancel=respond): this server accepted the cancellation but never checks it; the work goes on.
      if (this.settings.afterCancel === 'respond')
        this.server.work(
          'checkpoint',
          `${done}; this server does not check for the accepted cancellation and works on (a catalogued failure mode)`,
        );
      else this.server.work('stopped', workerWording.stopped(chunk));
      return this.settings.afterCancel === 'respond';
    }
    this.server.work('checkpoint', done);
    const token = this.coordinator.get(this.id)?.progressToken ?? null;
    if (!this.settings.serverSendsProgress || token === null) return true;
    const verdict = this.coordinator.serverProgress(this.id, chunk);
    if (verdict.accepted)
      sendOn(
        this.sim,
        'server',
        progressNotification(token, chunk, this.workerChunks, progressText),
        this.id,
        this.toClient,
      );
    else
      this.sim.record({
        kind: 'suppressed',
        by: 'server',
        requestId: this.id,
        what: 'progress',
        reason: verdict.reason,
      });
    return true;
  }

  private workerCompletes(): boolean {
    const respond = (): void => {
      this.finalResponse = true;
      sendOn(
        this.sim,
        'server',
        callToolResultResponse(this.id, 'Report for 2026-Q3 is ready.', { rows: 42 }),
        this.id,
        this.toClient,
      );
    };
    if (this.server.complete(workerWording.finished(), respond)) {
      this.studentReports(this.workerChunks, false);
      return false;
    }
    if (this.settings.afterCancel === 'respond' || this.student?.respondAfterCancel === true) {
      // a catalogued failure mode (or a student's coordinator answering 'send' after it accepted the cancellation):
      // the response goes out although cancellation won; the client cannot use it.
      respond();
      endResponseStream(this.sim, this.id);
    } else {
      this.sim.record({
        kind: 'suppressed',
        by: 'server',
        requestId: this.id,
        what: 'response',
        reason: responseSuppressed(),
      });
    }
    this.studentReports(this.workerChunks, false);
    return false;
  }

  // ── the coordinator exercise: the worker's progress reports, each decided by the student's coordinator ──

  /**
   * A checkpoint with the student's coordinator: the worker reports the chunk it finished (from the
   * second on, repeating its previous report first), whether or not the request was cancelled while
   * the chunk ran; then it stops if the coordinator accepted a cancellation. Each report goes on the
   * wire only when the coordinator says 'send'.
   */
  private studentCheckpoint(chunk: number, done: string): boolean {
    const cancelled = this.server.phase === 'cancelled';
    if (!cancelled) this.server.work('checkpoint', done);
    this.studentReports(chunk, chunk >= 2);
    if (!cancelled) return true;
    this.server.work('stopped', workerWording.stopped(chunk));
    return false;
  }

  /** The worker's progress report `progress` (after `repeat`: its previous one again, first), through the student's coordinator. */
  private studentReports(progress: number, repeat: boolean): void {
    const token = this.coordinator.get(this.id)?.progressToken ?? null;
    if (this.student === null || !this.settings.serverSendsProgress || token === null) return;
    for (const value of repeat ? [progress - 1, progress] : [progress]) {
      const verdict = this.coordinator.serverProgress(this.id, value);
      if (verdict.accepted)
        sendOn(
          this.sim,
          'server',
          progressNotification(token, value, this.workerChunks, `chunk ${value} of ${this.workerChunks}`),
          this.id,
          this.toClient,
        );
      else
        this.sim.record({
          kind: 'suppressed',
          by: 'server',
          requestId: this.id,
          what: 'progress',
          reason: verdict.reason,
        });
    }
  }

  // ── the scenario's script and the outcome ───────────────────────────────────────────────────

  /**
   * Schedules the script's next step that has a time (a step whose setting is null is skipped). Steps
   * are causal: each is scheduled when the one before it has run, so a same-instant chooser can reorder
   * a step against the simulation's events but never against its own script.
   */
  private scheduleStep(): void {
    for (; this.scriptAt < this.script.length; this.scriptAt += 1) {
      const step = this.script[this.scriptAt] as ScriptStep;
      const atMs = step.at === 'cancelAtMs' ? this.settings.cancelAtMs : step.at;
      if (atMs === null) continue;
      // The race itself is the event's argument: a run's steps make no closure and no label text.
      this.sim.at(Math.max(atMs, this.sim.nowMs), 'client', SCRIPT_LABELS[step.do], RequestRace.runStep, this);
      return;
    }
  }

  /** A script step's event: the step at `scriptAt` runs, then the next one is scheduled. */
  private static runStep(race: RequestRace): void {
    const step = race.script[race.scriptAt] as ScriptStep;
    race.scriptAt += 1;
    race.act(step.do);
    race.scheduleStep();
  }

  private act(action: ScriptStep['do']): void {
    if (action === 'call') this.call();
    else if (action === 'cancel') this.cancel();
    else if (action === 'cancel-malformed') this.sendBuggyCancel(true);
    else this.sendBuggyCancel(false);
  }

  run(script: readonly ScriptStep[]): this {
    assert(this.script.length === 0, 'a race runs its script once');
    this.script = script;
    this.scheduleStep();
    this.sim.run();
    this.sim.wire.assertAllAnswered();
    return this;
  }

  outcome(): RequestOutcome {
    const terminal = this.coordinator.terminal(this.id);
    assert(terminal !== null, 'every request ends in exactly one terminal state (the maximum deadline guarantees one)');
    // Noted as they arrived, so usually in seq order already: sorted only when not (the sort is stable).
    const clientIgnores = this.clientIgnores.slice();
    if (!clientIgnores.every(inSeqOrder)) clientIgnores.sort((a, b) => a.seq - b.seq);
    // What the transcript itself shows (one pass: a long run records hundreds of thousands of events).
    const marked: number[] = [];
    let divergeRecorded = false;
    for (const event of this.events) {
      if (event.kind === 'message' && event.ignoredBy === 'client') marked.push(event.seq);
      else if (event.kind === 'views-diverge') divergeRecorded = true;
    }
    if (this.sim.log.recording) {
      // Paired with toClient: the ignores noted as they happened are exactly the messages the transcript marks ignored by the client.
      assert(
        JSON.stringify(marked) === JSON.stringify(clientIgnores.map((ignore) => ignore.seq)),
        'the noted ignores match the transcript',
      );
    }
    assert(
      clientIgnores.every((ignore) => ignore.atMs >= 0),
      'an ignored message arrived at a real time',
    );
    const clientEnd = this.coordinator.clientOutcome(this.id);
    assert(clientEnd !== null, 'the client always ends its view: the maximum deadline guarantees one');
    const viewsDiverge = this.coordinator.viewsDiverge(this.id) === true;
    // Paired with noteViews: the outcome and the transcript agree on a divergence.
    if (this.sim.log.recording)
      assert(viewsDiverge === divergeRecorded, 'a divergence is in the outcome exactly when it is in the transcript');
    const cancelSentAtMs = this.client.cancelSentAtMs;
    return {
      requestId: this.id,
      terminalState: terminal.state,
      terminalAtMs: terminal.atMs,
      finalResponse: this.finalResponse,
      cancellationSignal: this.client.cancellationSignal,
      clientIgnores,
      clientOutcome: clientEnd.outcome,
      clientOutcomeAtMs: clientEnd.atMs,
      viewsDiverge,
      cancelDelayMs: cancelSentAtMs === null ? null : cancelSentAtMs - clientEnd.atMs,
    };
  }
}

/**
 * One run's lab: a scenario's script over one RequestRace. A class, not an object literal of two
 * closures: it lives as long as the run and holds it, and V8 came to allocate such literals in its old
 * generation, where a dead one kept its run alive through the young-generation collections after it.
 */
class RaceLab implements Lab<RequestOutcome, RequestRaceEvent> {
  constructor(
    private readonly race: RequestRace,
    private readonly script: readonly ScriptStep[],
  ) {}

  get events(): RequestRaceEvent[] {
    return this.race.events;
  }

  run(): RequestRace {
    return this.race.run(this.script);
  }

  outcome(): RequestOutcome {
    return this.race.outcome();
  }
}

/** The registry's adapter: a scenario's script over one RequestRace, its same-instant order pinned when the scenario pins one. */
export const requestRaceModel = defineModel(requestRaceSettingsSpec, (run, scenario: RequestRaceScenario) => {
  const chooser = run.chooser ?? (scenario.pinnedOrder.length > 0 ? pinnedChooser(scenario.pinnedOrder) : undefined);
  return new RaceLab(new RequestRace({ ...run, chooser }), scenario.script);
});
