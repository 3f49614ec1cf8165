import { usePanelsStore } from '../../store/panels';
import { TASK_SCENARIOS, type TaskScenario } from '../../store/panelsStore';
import { LoadState } from './LoadState';

const TITLES: Record<TaskScenario, string> = {
  'task-cancel-ack': 'Cancel acknowledged, task still working',
  'task-cancel-too-late': 'Cancel arrives too late',
  'task-http-close': 'HTTP stream closes, the task lives on',
};

/** docs/requirements.md#durable-tasks-tk (TK): a durable task's status over time next to the client's polls and the cancel ack. */
export function TasksPanel() {
  const scenario = usePanelsStore((s) => s.taskScenario);
  const setScenario = usePanelsStore((s) => s.setTaskScenario);
  const load = usePanelsStore((s) => s.tasks);
  const view = 'value' in load ? load.value : null;
  return (
    <section className="panel" aria-labelledby="tasks-title">
      <h2 id="tasks-title">Durable tasks</h2>
      <p className="panel-lede">
        An acknowledged tasks/cancel is not a cancelled task: the status changes only when the worker observes the flag.
      </p>
      <div className="panel-sliders">
        <div className="panel-slider">
          <label htmlFor="tasks-scenario">Task scenario</label>
          <select id="tasks-scenario" value={scenario} onChange={(e) => setScenario(e.target.value as TaskScenario)}>
            {TASK_SCENARIOS.map((id) => (
              <option key={id} value={id}>
                {TITLES[id]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <LoadState load={load} />
      {view !== null && (
        <>
          <dl className="panel-numbers">
            <div>
              <dt>Final status</dt>
              <dd data-testid="task-status">
                {view.outcome.taskStatus ?? 'none: the tools/call was lost before any task was created'}
              </dd>
            </div>
            <div>
              <dt>Cancel acknowledged</dt>
              <dd>{view.outcome.cancelAcknowledged ? 'yes' : 'no'}</dd>
            </div>
            <div>
              <dt>Status on the poll after the ack</dt>
              <dd>{view.outcome.statusAfterAck ?? '—'}</dd>
            </div>
            <div>
              <dt>Polls</dt>
              <dd>{view.outcome.polls}</dd>
            </div>
          </dl>
          <table className="panel-table is-trace" aria-label="Task status over time">
            <thead>
              <tr>
                <th scope="col">At</th>
                <th scope="col">Client / server</th>
                <th scope="col">Status</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {view.rows.map((row) => (
                <tr key={row.seq} data-action={row.action}>
                  <td>{row.atMs} ms</td>
                  <td>{row.action}</td>
                  <td>
                    <span className={`panel-status is-${row.status ?? 'none'}`}>{row.status ?? '—'}</span>
                  </td>
                  <td>{row.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
