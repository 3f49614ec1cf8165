import { lazy, startTransition, useEffect, useState, type ComponentProps } from 'react';
import { PartBoundary } from '../components/PartBoundary';
import { Legend } from './Legend';
import './diagram.css';
import './lazyDiagram.css';

/**
 * The sequence diagram, loaded apart from the page's first script: React Flow and the diagram's code
 * are most of what the first paint does not need (initial JS at most 150 kB gzip). The chunk is asked
 * for as soon as this module runs, so it loads while the worker computes the first run; until it is
 * there a placeholder of the diagram's own size (head, toolbar and pane) holds its place, so nothing
 * moves when it arrives. The diagram's styles stay in the first load for the same reason.
 */
type DiagramModule = typeof import('./Diagram');

/** The module once it has arrived: a diagram mounted after that renders at once, without suspending. */
let loaded: DiagramModule | null = null;
const load = () =>
  import('./Diagram').then((module) => {
    loaded = module;
    return module;
  });
void load().catch(() => undefined);
const DiagramPart = lazy(() => load().then((module) => ({ default: module.Diagram })));

type DiagramProps = ComponentProps<DiagramModule['Diagram']>;

export function Diagram(props: DiagramProps) {
  return (
    <PartBoundary
      name="the sequence diagram"
      fallback={<DiagramPlaceholder replay={props.replay !== undefined} title={props.replay?.title} />}
    >
      <DiagramNow {...props} />
    </PartBoundary>
  );
}

/**
 * The diagram itself. Suspending costs a Suspense round trip, and React holds a revealed boundary back
 * about 300 ms after its fallback shows, which a run's first draw would wait for. So a diagram first
 * mounted once the module is there commits its frame with the run, then draws itself in a transition:
 * at once, yet in slices that leave the main thread free between them (as a lazy part's retry does).
 * One mounted before the module arrives goes through the lazy part. Each instance keeps the way it
 * started, since switching would remount the diagram and lose its view.
 */
function DiagramNow(props: DiagramProps) {
  const [module] = useState(() => loaded);
  const [drawing, setDrawing] = useState(false);
  useEffect(() => {
    if (module !== null) startTransition(() => setDrawing(true));
  }, [module]);
  if (module === null) return <DiagramPart {...props} />;
  if (!drawing) return <DiagramPlaceholder replay={props.replay !== undefined} title={props.replay?.title} />;
  return <module.Diagram {...props} />;
}

/** The diagram's frame while its code loads: the same head (title, legend, the toolbar's room) over an empty pane. */
function DiagramPlaceholder({ replay, title }: { replay: boolean; title: string | undefined }) {
  return (
    <section className="lab-diagram" aria-label={title ?? 'Sequence diagram'} aria-busy="true" data-loading="true">
      <div className="lab-diagram-head">
        <h2 aria-hidden="true">{title ?? 'Sequence diagram'}</h2>
        {!replay && <Legend />}
        {/* The toolbar's room, not its buttons: nothing to press before the diagram is there. */}
        <div className="dg-toolbar" aria-hidden="true">
          {!replay && <span className="dg-tool">Linear time</span>}
          <span className="dg-tool">−</span>
          <span className="dg-tool">+</span>
          <span className="dg-tool">Fit View</span>
        </div>
      </div>
      <div className="lab-flow" />
    </section>
  );
}
