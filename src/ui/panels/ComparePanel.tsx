import { useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { usePanelsStore } from '../../store/panels';
import { openRecordingToCompare } from '../../store/recording';
import type { CompareView } from '../../store/panelsStore';
import { Diagram } from '../diagram/Diagram';
import { layoutDiagram, sharedAxis } from '../../diagram/geometry/layout';
import type { DiagramLayout } from '../../diagram/geometry/model';
import { formatMs } from '../format';
import { LoadState } from './LoadState';
import { KnownBugs } from '../components/KnownBugs';
import './compare.css';

/** Pairs worth comparing, one click each: model vs SDK, stdio vs HTTP, keyed vs unsafe, two seeds. */
const EXAMPLES: ReadonlyArray<{ label: string; a: string; b: string; c?: string }> = [
  { label: 'C: model vs real SDK', a: 'C', b: 'C:impl=ts-sdk' },
  // Three side by side: the lab's model, the SDK people run today (2025-11-25) and the SDK of the revision the lab teaches.
  { label: 'model / SDK v1 / SDK v2', a: 'C', b: 'C:impl=ts-sdk', c: 'C:impl=ts-sdk-v2' },
  {
    label: 'C at 333 ms progress: model vs SDK',
    a: 'C:latencyMs=0,progressEveryMs=333',
    b: 'C:impl=ts-sdk,latencyMs=0,progressEveryMs=333',
  },
  { label: 'D: stdio vs Streamable HTTP', a: 'D:transport=stdio', b: 'D:transport=http' },
  { label: 'Ledger race: unsafe vs keyed', a: 'ledger-race-unsafe', b: 'ledger-race-keyed' },
  { label: 'C: two seeds with jitter', a: 'C:seed=1,latencyJitterMs=20', b: 'C:seed=2,latencyJitterMs=20' },
];

/**
 * Any two or three runs, one above the other. Both diagrams are cut at one virtual time, which the
 * controls move for both at once (Step forward goes to the next instant at which either run did
 * something); the facts of both, each difference marked; and the first instant at which they part.
 * The worker runs both and compares them; the page words nothing itself.
 */
export function ComparePanel() {
  const runs = usePanelsStore((s) => s.compareRuns);
  const load = usePanelsStore((s) => s.compare);
  const setRuns = usePanelsStore((s) => s.setCompareRuns);
  const stopCompare = usePanelsStore((s) => s.stopCompare);
  const value = 'value' in load ? load.value : null;
  const [text, setText] = useState(runs);
  const [shown, setShown] = useState(runs);
  // Runs set from elsewhere (a link, an example) replace what is typed.
  if (shown !== runs) {
    setShown(runs);
    setText(runs);
  }
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setRuns(text.a.trim(), text.b.trim(), text.c?.trim());
  };
  const stopButton = load.status === 'loading' && (
    <button type="button" className="panel-button" onClick={stopCompare}>
      Stop comparing
    </button>
  );
  return (
    <section className="panel compare-panel" aria-labelledby="compare-title" data-runs={value?.runs.length}>
      {/* The first screen: the runs, the playback and the diagrams, sized to the tab (no scrolling at 1280×720); what they found follows below. */}
      <div className="compare-stage">
        <div className="compare-bar">
          <h2 id="compare-title">Compare two runs</h2>
          <form className="compare-form" onSubmit={onSubmit} aria-describedby="compare-how">
            <label className="compare-run">
              <span>Run A</span>
              <input
                type="text"
                value={text.a}
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => setText({ ...text, a: e.target.value })}
              />
            </label>
            <label className="compare-run">
              <span>Run B</span>
              <input
                type="text"
                value={text.b}
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => setText({ ...text, b: e.target.value })}
              />
            </label>
            <label className="compare-run">
              <span>Run C (optional)</span>
              <input
                type="text"
                value={text.c ?? ''}
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => setText({ ...text, c: e.target.value })}
              />
            </label>
            <button type="submit" className="panel-button">
              Compare
            </button>
          </form>
        </div>
        <div className="compare-status">
          <LoadState load={load} />
          {stopButton}
          {load.status === 'error' && value !== null && (
            <p className="compare-kept">The runs below are the last ones that ran.</p>
          )}
          <OpenMissingRecording />
        </div>
        {value !== null && <ComparedDiagrams view={value} />}
      </div>
      {value !== null && <Findings view={value} />}
      <div className="compare-help">
        <div className="compare-examples" role="group" aria-label="Examples">
          {EXAMPLES.map((example) => (
            <button
              key={example.label}
              type="button"
              className="panel-toggle"
              onClick={() => setRuns(example.a, example.b, example.c)}
            >
              {example.label}
            </button>
          ))}
        </div>
        <p className="panel-lede" id="compare-how">
          Write each run as <code>scenario[:key=value,…]</code>: <code>impl</code> (<code>model</code>,{' '}
          <code>ts-sdk</code> or <code>ts-sdk-v2</code>, the real MCP TypeScript SDK), <code>transport</code>,{' '}
          <code>seed</code> and any setting; a third run is optional. The diagrams share one virtual-time axis and move
          together: the current instant stands at the same height in each.
        </p>
        <KnownBugs />
      </div>
    </section>
  );
}

/** A run names a recorded transcript the link could not carry: offer to open the file, which then goes beside the model. */
function OpenMissingRecording() {
  const missing = usePanelsStore((s) => s.compareRecordingMissing);
  const input = useRef<HTMLInputElement>(null);
  if (missing === null) return null;
  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file !== undefined) void openRecordingToCompare(file, missing);
  };
  return (
    <>
      <button type="button" className="panel-button" onClick={() => input.current?.click()}>
        Open the recorded transcript
      </button>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        hidden
        tabIndex={-1}
        aria-hidden="true"
        data-testid="compare-recording-file"
        onChange={onPick}
      />
    </>
  );
}

/** Where the current instant's band ends in a compared diagram: near the pane's foot, since the pane is low and what led to it matters more than what follows. */
const COMPARE_FOLLOW_AT = 0.95;

/**
 * The runs' diagrams, one above the other, each the whole width, and the playback that moves them all.
 * They are laid out here, once per comparison, through the diagram's geometry (the functions the lab
 * worker lays its runs out with) on one shared virtual-time axis; the diagrams only draw the layouts.
 */
function ComparedDiagrams({ view }: { view: CompareView }) {
  const atMs = usePanelsStore((s) => s.compareAtMs);
  const setAtMs = usePanelsStore((s) => s.setCompareAtMs);
  const { divergence } = view.comparison;
  // Every instant at which any run did something: the shared axis's stops.
  const times = useMemo(
    () =>
      [...new Set(view.runs.flatMap((run) => run.transcript.events.map((event) => event.atMs)))].sort((x, y) => x - y),
    [view],
  );
  const endMs = times.at(-1) ?? 0;
  // One virtual-time axis: the same instant at the same y in every layout; all fit the widest and tallest at one zoom, so they stay level.
  const laid = useMemo(() => {
    const axis = sharedAxis(view.runs);
    const layouts = view.runs.map((run) => layoutDiagram(run.transcript, run.wording, 'ordinal', axis));
    return {
      axis,
      layouts,
      width: Math.max(...layouts.map((l) => l.width)),
      height: Math.max(...layouts.map((l) => l.height)),
    };
  }, [view]);
  const nowMs = atMs ?? endMs;
  const stepOf = (events: readonly { atMs: number }[]) => {
    let shown = 0;
    while (shown < events.length && (events[shown]?.atMs ?? Infinity) <= nowMs) shown += 1;
    return shown;
  };
  const shownMs = [...times].reverse().find((t) => t <= nowMs) ?? times[0] ?? 0;
  // The y every diagram keeps in view: the foot of the current instant's band (where the next instant's starts), so the whole band is in the pane.
  const nextMs = times.find((t) => t > shownMs);
  const followY = (nextMs === undefined ? undefined : laid.axis.bandY.get(nextMs)) ?? laid.height;
  const next = times.find((t) => t > nowMs);
  const previous = [...times].reverse().find((t) => t < nowMs);
  const go = (t: number) => setAtMs(t >= endMs ? null : t);
  return (
    <>
      <div className="compare-playback" role="region" aria-label="Compare playback">
        <button
          type="button"
          className="panel-toggle"
          disabled={previous === undefined}
          onClick={() => previous !== undefined && go(previous)}
        >
          Step back
        </button>
        <button
          type="button"
          className="panel-toggle"
          disabled={next === undefined}
          onClick={() => next !== undefined && go(next)}
        >
          Step forward
        </button>
        <label className="compare-time">
          <span>Virtual time</span>
          <input
            type="range"
            min={0}
            max={endMs}
            step={1}
            value={nowMs}
            onChange={(e) => go(Number(e.target.value))}
            aria-valuetext={formatMs(nowMs)}
          />
        </label>
        <output className="compare-now" aria-live="polite">
          {formatMs(nowMs)}
        </output>
        {divergence !== null && (
          <button type="button" className="panel-toggle" onClick={() => go(divergence.atMs)}>
            First difference
          </button>
        )}
      </div>
      <div className="compare-diagrams" data-count={view.runs.length}>
        {view.runs.map((run, index) => (
          <Diagram
            key={index}
            transcript={run.transcript}
            replay={{
              step: stepOf(run.transcript.events),
              layout: laid.layouts[index] as DiagramLayout,
              headingId: `compare-${LETTERS[index]?.toLowerCase() ?? index}`,
              title: `Run ${LETTERS[index] ?? index}: ${run.spec}`,
              followY,
              fitWidth: laid.width,
              fitHeight: laid.height,
              followAt: COMPARE_FOLLOW_AT,
            }}
          />
        ))}
      </div>
    </>
  );
}

/** What the comparison found, below the diagrams: where the runs part, how they were compared, and the facts of each. */
function Findings({ view }: { view: CompareView }) {
  const [a, b] = view.runs;
  const c = view.runs[2];
  const { facts, divergence, note } = view.comparison;
  // The note names an SDK of an older revision than the model's (SDK 1.x); v2 speaks the model's own.
  const sdk = view.runs.find(
    (run) => run.transcript.sdk !== undefined && run.transcript.protocolVersion !== '2026-07-28',
  )?.transcript.sdk;
  return (
    <>
      {divergence === null ? (
        <p className="compare-divergence">The runs do not part: every compared event matches.</p>
      ) : (
        <div className="compare-divergence" role="group" aria-label="First difference">
          <p>
            <strong>They part at {formatMs(divergence.atMs)}.</strong>
          </p>
          <p>Run A: {divergence.a ?? 'nothing else at that instant'}</p>
          <p>Run B: {divergence.b ?? 'nothing else at that instant'}</p>
        </div>
      )}
      {view.many !== undefined && c !== undefined && <PairPartings many={view.many} specs={[a.spec, b.spec, c.spec]} />}
      <p className="compare-note">
        {note.charAt(0).toUpperCase()}
        {note.slice(1)}.
        {sdk !== undefined &&
          ` ${sdk.package} ${sdk.version} negotiates protocol ${sdk.negotiatedProtocolVersion}, an older revision than the model’s.`}
      </p>
      {view.many !== undefined && c !== undefined ? (
        <ThreeFacts many={view.many} specs={[a.spec, b.spec, c.spec]} />
      ) : (
        <table className="lab-facts compare-facts">
          <caption>Facts of both runs</caption>
          <thead>
            <tr>
              <th scope="col">Fact</th>
              <th scope="col">Run A: {a.spec}</th>
              <th scope="col">Run B: {b.spec}</th>
            </tr>
          </thead>
          <tbody>
            {facts.map((fact) => (
              <tr key={fact.name} className={fact.differs ? 'is-different' : undefined}>
                <th scope="row">
                  {fact.name}
                  {fact.differs && <span className="compare-differs"> differs</span>}
                </th>
                <td>{fact.a}</td>
                <td>{fact.b}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

const LETTERS = ['A', 'B', 'C'] as const;

/** Three runs: where each pair first parts, as the pairwise comparison finds it. */
function PairPartings({ many, specs }: { many: NonNullable<CompareView['many']>; specs: readonly string[] }) {
  return (
    <div className="compare-divergence" role="group" aria-label="Where each pair parts">
      {many.pairs.map((pair) => (
        <p key={`${pair.a}-${pair.b}`}>
          <strong>
            Run {LETTERS[pair.a]} and Run {LETTERS[pair.b]}
          </strong>{' '}
          {pair.divergence === null
            ? 'do not part.'
            : `part at ${formatMs(pair.divergence.atMs)}: ${specs[pair.a]} — ${pair.divergence.a ?? 'nothing else at that instant'}; ${specs[pair.b]} — ${pair.divergence.b ?? 'nothing else at that instant'}.`}
        </p>
      ))}
    </div>
  );
}

/** Three runs: every run's facts in one table, each difference marked. */
function ThreeFacts({ many, specs }: { many: NonNullable<CompareView['many']>; specs: readonly string[] }) {
  return (
    <table className="lab-facts compare-facts">
      <caption>Facts of the three runs</caption>
      <thead>
        <tr>
          <th scope="col">Fact</th>
          {specs.map((spec, index) => (
            <th key={spec + String(index)} scope="col">
              Run {LETTERS[index]}: {spec}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {many.facts.map((fact) => (
          <tr key={fact.name} className={fact.differs ? 'is-different' : undefined}>
            <th scope="row">
              {fact.name}
              {fact.differs && <span className="compare-differs"> differs</span>}
            </th>
            {fact.values.map((value, index) => (
              <td key={index}>{value}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
