import {
  lazy,
  Suspense,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ChangeEvent,
  type KeyboardEvent,
} from 'react';
import type { CheckReport, CodeError, StatementResult } from '../../exercise/types';
import type { ExerciseListing, ExerciseRun, OpenedOrdering } from '../../store/exerciseStore';
import { useExerciseStore } from '../../store/exercises';
import { Diagram } from '../diagram/Diagram';
import type { DiagramLayout } from '../../diagram/geometry/model';
import { layoutDiagram } from '../../diagram/geometry/layout';
import { downloadFile } from '../download';
import { formatMs, formatNumber, TRANSPORT_LABELS } from '../format';
import './exercises.css';

/** CodeMirror and its JavaScript mode: a chunk of their own, loaded when the tab first shows the editor. */
const CodeEditor = lazy(() => import('./CodeEditor'));

const CODE_ERROR_ID = 'exercise-code-error';

const KIND_LABELS: Record<CodeError['kind'], string> = {
  syntax: 'Syntax error',
  exception: 'Your code threw',
  budget: 'Over budget',
  shape: 'Wrong shape',
  'missing-export': 'Missing export',
  process: 'Process failed',
};

/**
 * Build it yourself: pick an exercise, write the lesson's component in the editor (JavaScript, kept
 * in the browser), and Check it. The lab runs the exercise's scenarios with your component in place of
 * its own, in every ordering the network allows (in the tab's own worker, in a QuickJS sandbox), and
 * says which statements hold; a broken one opens its shortest failing ordering in the sequence diagram.
 */
export function ExercisesPanel() {
  const exercises = useExerciseStore((s) => s.exercises);
  const selected = useExerciseStore((s) => s.selected);
  const load = useExerciseStore((s) => s.load);
  const runCheck = useExerciseStore((s) => s.runCheck);
  const checksSettled = useExerciseStore((s) => s.checksSettled);
  useEffect(() => void load(), [load]);
  // Ctrl+Enter (⌘+Enter) checks from anywhere in the tab, the editor included.
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey)) return;
    event.preventDefault();
    void runCheck();
  };
  const list = exercises.status === 'done' ? exercises.value : [];
  const exercise = list.find((candidate) => candidate.id === selected) ?? null;
  return (
    <section
      className="panel exercise-panel"
      aria-labelledby="exercise-title"
      onKeyDown={onKeyDown}
      data-checks={checksSettled}
    >
      <div className="exercise-grid">
        <div className="exercise-code">
          <div className="exercise-bar">
            <h2 id="exercise-title">Build it yourself</h2>
            <ExercisePicker list={list} />
          </div>
          {exercises.status === 'loading' && (
            <p className="panel-busy" role="status" data-busy="true">
              Loading the exercises…
            </p>
          )}
          {exercises.status === 'error' && (
            <p role="alert" className="panel-error">
              The exercises could not be loaded: {exercises.message}
            </p>
          )}
          {exercise !== null && <CodeColumn exercise={exercise} />}
        </div>
        <div className="exercise-results" role="region" aria-label="Check results" tabIndex={0}>
          {exercise !== null && <Results exercise={exercise} />}
        </div>
      </div>
    </section>
  );
}

function ExercisePicker({ list }: { list: readonly ExerciseListing[] }) {
  const selected = useExerciseStore((s) => s.selected);
  const select = useExerciseStore((s) => s.select);
  return (
    <label className="exercise-picker">
      <span className="lab-label">Exercise</span>
      <select value={selected ?? ''} onChange={(event) => void select(event.target.value)} disabled={list.length === 0}>
        {list.map((exercise) => (
          // The title alone: with its id after it the longest was cut in the code column at 1280×720.
          <option key={exercise.id} value={exercise.id}>
            {exercise.title}
          </option>
        ))}
      </select>
    </label>
  );
}

function CodeColumn({ exercise }: { exercise: ExerciseListing }) {
  const code = useExerciseStore((s) => s.code[exercise.id]);
  const setCode = useExerciseStore((s) => s.setCode);
  const check = useExerciseStore((s) => s.check);
  const checkedCode = useExerciseStore((s) => s.checkedCode);
  const reveal = useExerciseStore((s) => s.revealError);
  const report = check.status === 'done' ? check.value : null;
  const error = report?.error ?? null;
  // The marker stays on the line while the code is the code that was checked.
  const marked = error !== null && error.line !== undefined && code === checkedCode ? error : null;
  return (
    <>
      <p className="exercise-summary">
        {exercise.summary} Your module exports {exercise.exports.map((name) => `${name}()`).join(' and ')}.
      </p>
      <Toolbar exercise={exercise} code={code ?? null} />
      <UploadAndReset />
      {error !== null && <CodeErrorNote error={error} stale={code !== checkedCode} />}
      <div className="exercise-editor" data-testid="exercise-editor">
        {code === undefined ? (
          <p className="panel-busy" role="status" data-busy="true">
            Reading your code…
          </p>
        ) : (
          <Suspense
            fallback={
              <p className="panel-busy" role="status" data-busy="true">
                Loading the editor…
              </p>
            }
          >
            <CodeEditor
              value={code}
              onChange={setCode}
              errorLine={marked?.line ?? null}
              errorColumn={marked?.column ?? null}
              reveal={reveal}
            />
          </Suspense>
        )}
      </div>
    </>
  );
}

function Toolbar({ exercise, code }: { exercise: ExerciseListing; code: string | null }) {
  const check = useExerciseStore((s) => s.check);
  const runCheck = useExerciseStore((s) => s.runCheck);
  const upload = useExerciseStore((s) => s.upload);
  const resetToStarter = useExerciseStore((s) => s.resetToStarter);
  const input = useRef<HTMLInputElement>(null);
  const checking = check.status === 'loading';
  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file !== undefined) void upload(file);
  };
  return (
    <div className="exercise-toolbar" role="group" aria-label="Your code">
      <button
        type="button"
        className="panel-button"
        onClick={() => void runCheck()}
        disabled={checking || code === null}
        aria-keyshortcuts="Control+Enter"
      >
        Check
      </button>
      <button
        type="button"
        className="panel-toggle"
        disabled={code === null}
        onClick={() =>
          code !== null && downloadFile(new TextEncoder().encode(code), `${exercise.id}.js`, 'text/javascript')
        }
      >
        Download
      </button>
      <button type="button" className="panel-toggle" onClick={() => input.current?.click()}>
        Upload
      </button>
      <input
        ref={input}
        type="file"
        accept=".js,.mjs,text/javascript"
        hidden
        tabIndex={-1}
        aria-hidden="true"
        data-testid="exercise-upload"
        onChange={onPick}
      />
      <button
        type="button"
        className="panel-toggle"
        disabled={code === null || code === exercise.starter}
        onClick={resetToStarter}
      >
        Reset to starter
      </button>
    </div>
  );
}

/** What an upload or a reset did: a refused file's reason (the code kept), or the reset with its Undo. */
function UploadAndReset() {
  const uploadError = useExerciseStore((s) => s.uploadError);
  const beforeReset = useExerciseStore((s) => s.beforeReset);
  const undoReset = useExerciseStore((s) => s.undoReset);
  return (
    <>
      {uploadError !== null && (
        <p role="alert" className="panel-error exercise-note">
          The file was not used: {uploadError}
        </p>
      )}
      <div role="status" className="exercise-note-slot">
        {beforeReset !== null && (
          <p className="exercise-note">
            Your code was replaced by the starter.{' '}
            <button type="button" className="panel-toggle" onClick={undoReset}>
              Undo reset
            </button>
          </p>
        )}
      </div>
    </>
  );
}

function CodeErrorNote({ error, stale }: { error: CodeError; stale: boolean }) {
  const where =
    error.line === undefined
      ? ''
      : `Line ${error.line}${error.column === undefined ? '' : `, column ${error.column}`}: `;
  const run = error.where;
  return (
    <div role="alert" className="panel-error exercise-code-error" id={CODE_ERROR_ID} data-kind={error.kind}>
      <strong>{KIND_LABELS[error.kind]}.</strong> {where}
      {error.message}
      {run !== undefined && (
        <span className="exercise-where">
          {' '}
          (in {run.scenario} on {TRANSPORT_LABELS[run.transport]}, {settingsText(run.settings)}, at {formatMs(run.atMs)}
          )
        </span>
      )}
      {stale && <span className="exercise-where"> Your code changed since this Check.</span>}
      {run !== undefined && <ShowWhere />}
    </div>
  );
}

function ShowWhere() {
  const openWhere = useExerciseStore((s) => s.openWhere);
  return (
    <button type="button" className="panel-toggle exercise-open" onClick={() => void openWhere()}>
      Show the ordering where it failed
    </button>
  );
}

function settingsText(settings: Readonly<Record<string, unknown>>): string {
  return Object.entries(settings)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(', ');
}

function Results({ exercise }: { exercise: ExerciseListing }) {
  const check = useExerciseStore((s) => s.check);
  const progress = useExerciseStore((s) => s.progress);
  const opened = useExerciseStore((s) => s.opened);
  const stopCheck = useExerciseStore((s) => s.stopCheck);
  const report = check.status === 'done' ? check.value : null;
  return (
    <>
      {/* One slot of one height for the state of the Check (not yet, running, its verdict): the table under it
          never moves, and the verdict is announced where "Checking every ordering" was. */}
      <div className="exercise-status" role="status" data-busy={check.status === 'loading' ? 'true' : 'false'}>
        {check.status === 'loading' ? (
          <div className="exercise-progress">
            <span>
              Checking every ordering
              {progress === null || progress.total === 0 ? '…' : `: runs ${progress.done} of ${progress.total}`}
            </span>
            <progress max={progress?.total || 1} value={progress?.done ?? undefined} aria-label="Check progress" />
            {/* Here, not in the code's toolbar: the toolbar and the editor under it do not move while a Check runs. */}
            <button type="button" className="panel-toggle" onClick={stopCheck}>
              Stop
            </button>
          </div>
        ) : report !== null ? (
          <ReportSummary report={report} />
        ) : (
          check.status === 'idle' && (
            <p className="exercise-progress">Not checked yet: Check (Ctrl+Enter) runs your code in every ordering.</p>
          )
        )}
      </div>
      {check.status === 'error' && (
        <p role="alert" className="panel-error">
          The check did not finish: {check.message}
        </p>
      )}
      <StaleNote />
      <StatementsTable exercise={exercise} report={report} />
      {opened !== null && <FailingOrdering opened={opened} />}
    </>
  );
}

/** The report is about the code as it was checked: say so once the editor has moved on. */
function StaleNote() {
  const stale = useExerciseStore(
    (s) =>
      s.check.status === 'done' &&
      s.selected !== null &&
      s.checkedCode !== null &&
      s.code[s.selected] !== s.checkedCode,
  );
  return stale ? (
    <p className="exercise-stale">Your code changed since this Check: Check again to see where it stands now.</p>
  ) : null;
}

function ReportSummary({ report }: { report: CheckReport }) {
  const holding = report.statements.filter((statement) => statement.holds).length;
  if (report.error !== undefined)
    return (
      <p className="exercise-verdict is-bad" data-passed="false">
        Not graded: your code failed ({KIND_LABELS[report.error.kind].toLowerCase()}); see beside the editor.{' '}
        {formatNumber(report.orderings)} orderings checked before it, in {formatSeconds(report.elapsedMs)}.
      </p>
    );
  return (
    <p
      className={report.passed ? 'exercise-verdict is-good' : 'exercise-verdict is-bad'}
      data-passed={String(report.passed)}
    >
      <strong>
        {report.passed ? 'All statements hold.' : `${holding} of ${report.statements.length} statements hold.`}
      </strong>{' '}
      {formatNumber(report.orderings)} orderings checked ({formatNumber(report.states)} states) in{' '}
      {formatSeconds(report.elapsedMs)}
      {report.complete ? '.' : '; a bound cut the exploration short, so “holds” means none was found.'}
    </p>
  );
}

/** A statement broken by an ordering that could not run to its end is placed at the end (grade.ts). */
function atTheEnd(step: number): boolean {
  return step >= Number.MAX_SAFE_INTEGER;
}

function formatSeconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function StatementsTable({ exercise, report }: { exercise: ExerciseListing; report: CheckReport | null }) {
  const openFailing = useExerciseStore((s) => s.openFailing);
  const opened = useExerciseStore((s) => s.opened);
  // A report with an error of the code grades nothing (its statements are what the runs before it saw).
  const graded = report === null || report.error !== undefined ? [] : report.statements;
  const results = new Map<string, StatementResult>(graded.map((result) => [result.id, result]));
  return (
    <table className="panel-table exercise-statements">
      <caption>Statements the lab checks</caption>
      <thead>
        <tr>
          <th scope="col">Statement</th>
          <th scope="col">Requirements</th>
          <th scope="col">Result</th>
        </tr>
      </thead>
      <tbody>
        {exercise.statements.map((statement) => {
          const result = results.get(statement.id);
          return (
            <tr
              key={statement.id}
              data-statement={statement.id}
              data-holds={result === undefined ? undefined : String(result.holds)}
            >
              <td>
                {statement.text} <code className="exercise-id">{statement.id}</code>
                {result?.holds === false && result.explanation !== undefined && (
                  <p className="exercise-explanation">{result.explanation}</p>
                )}
              </td>
              <td>{statement.requirements.join(', ')}</td>
              <td>
                {result === undefined ? (
                  <span className="exercise-unchecked">
                    {report?.error === undefined ? 'not checked yet' : 'not graded'}
                  </span>
                ) : result.holds ? (
                  <span className="panel-ok">holds</span>
                ) : (
                  <>
                    <span className="panel-bad">broken</span>
                    {result.failing !== undefined && (
                      <button
                        type="button"
                        className="panel-toggle exercise-open"
                        aria-pressed={opened?.statement === statement.id}
                        onClick={() => void openFailing(statement.id)}
                        aria-label={`Show the failing ordering of ${statement.id}`}
                      >
                        Show failing ordering
                      </button>
                    )}
                  </>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function FailingOrdering({ opened }: { opened: OpenedOrdering }) {
  const closeFailing = useExerciseStore((s) => s.closeFailing);
  // Each opening, the one already open opened again from the table too, counts one replay request.
  const openings = useExerciseStore((s) => s.replayRequest);
  const { failing, run } = opened;
  const section = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened (or opened again), it comes into view at the top of the results column, under the held status line (before it is
  // painted, so nothing is seen to jump): its heading, where it broke and the diagram. The focus follows
  // to its heading, unless the student is in the editor (Ctrl+Enter there): the status line has announced
  // the verdict.
  useLayoutEffect(() => {
    const element = section.current;
    const column = element?.closest('.exercise-results');
    if (element === null || !(column instanceof HTMLElement)) return;
    const held = column.querySelector('.exercise-status')?.getBoundingClientRect().height ?? 0;
    column.scrollTop += element.getBoundingClientRect().top - column.getBoundingClientRect().top - held;
    if (document.activeElement?.closest('.exercise-editor') == null) heading.current?.focus({ preventScroll: true });
  }, [opened.statement, openings]);
  return (
    <section
      ref={section}
      className="exercise-failing"
      aria-labelledby="exercise-failing-title"
      data-statement={opened.statement}
    >
      <div className="exercise-failing-head">
        <h3 id="exercise-failing-title" ref={heading} tabIndex={-1}>
          {opened.statement.startsWith('your code failed')
            ? `The ordering in which ${opened.statement}`
            : `Shortest failing ordering: ${opened.statement}`}
        </h3>
        <button type="button" className="panel-toggle" onClick={closeFailing}>
          Close
        </button>
      </div>
      <p className="exercise-run-info">
        {failing.scenario} on {TRANSPORT_LABELS[failing.transport]}, {settingsText(failing.settings)} ·{' '}
        {atTheEnd(failing.step)
          ? 'broken at the end of the run'
          : `${formatNumber(failing.events)} events to the break`}{' '}
        ·{' '}
        {failing.schedule === '' || failing.schedule === '-' ? (
          'the first ordering (every choice its first option)'
        ) : (
          <>
            ordering <code>{failing.schedule}</code>
          </>
        )}
      </p>
      {opened.explanation !== '' && <p className="exercise-explanation">{opened.explanation}</p>}
      {run.status === 'loading' && (
        <p className="panel-busy" role="status" data-busy="true">
          Replaying the ordering with your code…
        </p>
      )}
      {run.status === 'error' && (
        <p role="alert" className="panel-error">
          The ordering could not be replayed: {run.message}
        </p>
      )}
      {run.status === 'done' &&
        (run.value.transcript === null || run.value.failure !== null ? (
          <p role="alert" className="panel-error exercise-run-failure" data-testid="exercise-run-failure">
            Your component broke the run partway, so there is no diagram:{' '}
            {run.value.failure ?? 'the run did not finish'}
          </p>
        ) : (
          <OrderingDiagram
            run={{ ...run.value, transcript: run.value.transcript }}
            step={failing.step}
            statement={opened.statement}
          />
        ))}
      <CallsTable opened={opened} />
    </section>
  );
}

type ShownRun = ExerciseRun & { transcript: NonNullable<ExerciseRun['transcript']> };

function OrderingDiagram({ run, step: breakSeq, statement }: { run: ShownRun; step: number; statement: string }) {
  const { transcript, wording } = run;
  const layout = useMemo<DiagramLayout>(() => layoutDiagram(transcript, wording, 'ordinal'), [transcript, wording]);
  // Shown up to and including the event at which the statement broke (an ordering that broke at its end: the whole run).
  const found = transcript.events.findIndex((event) => event.seq >= breakSeq);
  const breakIndex = found === -1 ? transcript.events.length - 1 : found;
  const breakStep = Math.min(transcript.events.length, breakIndex + 1);
  const [step, setStep] = useState(breakStep);
  const [shownFor, setShownFor] = useState(transcript);
  if (shownFor !== transcript) {
    setShownFor(transcript);
    setStep(breakStep);
  }
  const event = transcript.events[breakIndex];
  const words = wording[breakIndex];
  return (
    <div className="exercise-ordering" data-break-step={breakStep} data-step={step}>
      <p className="exercise-break" data-testid="exercise-break">
        <span className="exercise-break-mark" aria-hidden="true">
          ⚑
        </span>{' '}
        {found === -1 ? 'Broke at the end of the run, the last event' : 'Broke at event'} {event?.seq ?? breakSeq}
        {event === undefined ? '' : `, ${formatMs(event.atMs)}`}
        {words === undefined ? '' : `: ${words.text}`}
      </p>
      <div className="exercise-playback" role="group" aria-label="Failing ordering playback">
        <button type="button" className="panel-toggle" disabled={step <= 0} onClick={() => setStep(step - 1)}>
          Step back
        </button>
        <button
          type="button"
          className="panel-toggle"
          disabled={step >= transcript.events.length}
          onClick={() => setStep(step + 1)}
        >
          Step forward
        </button>
        <button
          type="button"
          className="panel-toggle"
          aria-pressed={step === breakStep}
          onClick={() => setStep(breakStep)}
        >
          To the break
        </button>
        <button
          type="button"
          className="panel-toggle"
          aria-pressed={step === transcript.events.length}
          onClick={() => setStep(transcript.events.length)}
        >
          Whole run
        </button>
        <output aria-live="polite" className="exercise-step">
          {step} of {transcript.events.length} events{step === breakStep ? ' · at the break' : ''}
        </output>
      </div>
      <div className="exercise-diagram">
        <Diagram
          transcript={transcript}
          replay={{ step, layout, headingId: 'exercise-diagram-title', title: `With your code: ${statement} broken` }}
        />
      </div>
    </div>
  );
}

/** How many of a replay's own calls are listed when the report kept none (a failure of the code): the last ones, as grade() keeps. */
const CALLS_SHOWN = 12;

function CallsTable({ opened }: { opened: OpenedOrdering }) {
  const replayed = opened.run.status === 'done' ? opened.run.value.calls : [];
  const calls = opened.calls.length > 0 ? opened.calls : replayed.slice(-CALLS_SHOWN);
  return (
    <table className="panel-table exercise-calls">
      <caption>Calls into your code up to the break (the last {calls.length})</caption>
      <thead>
        <tr>
          <th scope="col">At</th>
          <th scope="col">The lab called</th>
          <th scope="col">Your code returned</th>
        </tr>
      </thead>
      <tbody>
        {calls.length === 0 ? (
          <tr>
            <td colSpan={3}>No call into your code before the break.</td>
          </tr>
        ) : (
          calls.map((call, index) => (
            <tr key={index}>
              <td>{formatMs(call.atMs)}</td>
              <td>
                <code>{call.call}</code>
              </td>
              <td>
                <code>{call.returned}</code>
              </td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
