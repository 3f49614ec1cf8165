import type { ComponentClock, ComponentProbe, TaskStoreComponent, TaskStoreStatus } from '../../core/components';

/**
 * A student's task store (the `tasks` exercise) in the place of the lab's own status logic. The adapter
 * keeps the truth beside it: what the worker did (still running, stopped at a checkpoint, finished) and
 * whether a cancel was requested. Each answer is checked against that truth (TK-1, TK-2) and handed back
 * as it is: the lab writes it to the task row and the transcript, so the run follows the store.
 */
export const TASK_STATEMENTS = [
  'cancel-only-acknowledges',
  'working-until-checkpoint',
  'checkpoint-observes-cancel',
  'late-cancel-keeps-completed',
  'terminal-stable',
] as const;
export type TaskStatement = (typeof TASK_STATEMENTS)[number];

const TERMINAL: ReadonlySet<TaskStoreStatus> = new Set(['completed', 'failed', 'cancelled']);

type Worker = 'running' | 'stopped' | 'finished';

const TRUTH: Record<Worker, TaskStoreStatus> = { running: 'working', stopped: 'cancelled', finished: 'completed' };

export class ComponentTaskStore {
  private worker: Worker = 'running';
  private cancelRequested = false;
  /** The last status the store gave (any answer, or cancelled after its 'stop'), for terminal-stable. */
  private lastStatus: TaskStoreStatus | null = null;

  constructor(
    private readonly component: TaskStoreComponent,
    private readonly probe: ComponentProbe,
    private readonly clock: ComponentClock,
  ) {}

  private breach(statement: TaskStatement, explanation: string): void {
    this.probe.breach(statement, explanation, this.clock);
  }

  /** Every status the store gives out: once terminal, it must stay that very status. */
  private gave(status: TaskStoreStatus, how: string): void {
    const before = this.lastStatus;
    if (before !== null && TERMINAL.has(before) && status !== before)
      this.breach(
        'terminal-stable',
        `${how} after the store had already given the terminal status ${before}: a terminal status never changes`,
      );
    this.lastStatus = status;
  }

  create(taskId: string): TaskStoreStatus {
    const status = this.component.create(taskId);
    if (status !== 'working')
      this.breach(
        'working-until-checkpoint',
        `create(${JSON.stringify(taskId)}) answered ${JSON.stringify(status)}: a new task is working, its worker has only started`,
      );
    this.gave(status, `create answered ${status}`);
    return status;
  }

  onCancelRequest(taskId: string): TaskStoreStatus {
    this.cancelRequested = true;
    const status = this.component.onCancelRequest(taskId);
    const truth = TRUTH[this.worker];
    const how = `onCancelRequest(${JSON.stringify(taskId)}) answered ${JSON.stringify(status)}`;
    if (status !== truth) {
      if (this.worker === 'running')
        this.breach(
          'cancel-only-acknowledges',
          `${how} while the worker still runs: tasks/cancel only records the request, the task stays working until a checkpoint observes it`,
        );
      else if (this.worker === 'finished')
        this.breach(
          'late-cancel-keeps-completed',
          `${how} after the work had finished: a cancel that comes too late leaves the task completed, its result kept`,
        );
    }
    this.gave(status, how);
    return status;
  }

  checkpoint(taskId: string): 'continue' | 'stop' {
    const answer = this.component.checkpoint(taskId);
    const how = `checkpoint(${JSON.stringify(taskId)}) answered ${JSON.stringify(answer)}`;
    if (this.cancelRequested && answer === 'continue')
      this.breach(
        'checkpoint-observes-cancel',
        `${how} after tasks/cancel was requested: the checkpoint is where the worker observes the cancel and stops`,
      );
    if (!this.cancelRequested && answer === 'stop')
      this.breach(
        'checkpoint-observes-cancel',
        `${how} though no one asked to cancel: the worker stops only for a cancel request`,
      );
    if (answer === 'stop') {
      this.worker = 'stopped';
      this.gave('cancelled', `${how}, so the task became cancelled,`);
    }
    return answer;
  }

  complete(taskId: string): TaskStoreStatus {
    this.worker = 'finished';
    const status = this.component.complete(taskId);
    const how = `complete(${JSON.stringify(taskId)}) answered ${JSON.stringify(status)}`;
    if (status !== 'completed') {
      if (this.cancelRequested)
        this.breach(
          'late-cancel-keeps-completed',
          `${how}: the work finished before any checkpoint observed the cancel, so the task is completed and its result kept`,
        );
      else
        this.breach(
          'working-until-checkpoint',
          `${how}: the work finished with no cancel requested, so the task is completed`,
        );
    }
    this.gave(status, how);
    return status;
  }

  status(taskId: string): TaskStoreStatus {
    const status = this.component.status(taskId);
    const truth = TRUTH[this.worker];
    const how = `status(${JSON.stringify(taskId)}) answered ${JSON.stringify(status)}`;
    if (status !== truth) {
      if (this.worker === 'finished' && this.cancelRequested)
        this.breach(
          'late-cancel-keeps-completed',
          `${how} for tasks/get, but the work finished before any checkpoint observed the cancel: the task is completed`,
        );
      else if (this.worker === 'running')
        this.breach(
          'working-until-checkpoint',
          `${how} for tasks/get while the worker still runs${this.cancelRequested ? ' (the cancel is requested, but no checkpoint has observed it yet)' : ''}: the task is working`,
        );
      else
        this.breach(
          'working-until-checkpoint',
          `${how} for tasks/get, but the worker ${this.worker === 'stopped' ? 'stopped at a checkpoint: the task is cancelled' : 'finished: the task is completed'}`,
        );
    }
    this.gave(status, `${how} for tasks/get`);
    return status;
  }
}
