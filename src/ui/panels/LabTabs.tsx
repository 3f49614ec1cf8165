import { lazy, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { usePanelsStore } from '../../store/panels';
import { TABS, type TabId } from '../../store/panelsStore';
import './panels.css';

// Each panel's code (uPlot for the charts, the reviewer, the evidence export) loads when its tab first
// opens: the first screen, the race, needs none of it.
import { PartBoundary } from '../components/PartBoundary';
const TasksPanel = lazy(() => import('./TasksPanel').then((m) => ({ default: m.TasksPanel })));
const BufferPanel = lazy(() => import('./BufferPanel').then((m) => ({ default: m.BufferPanel })));
const BackoffPanel = lazy(() => import('./BackoffPanel').then((m) => ({ default: m.BackoffPanel })));
const ProxyPanel = lazy(() => import('./ProxyPanel').then((m) => ({ default: m.ProxyPanel })));
const VerificationPanel = lazy(() => import('./VerificationPanel').then((m) => ({ default: m.VerificationPanel })));
const ReviewerPanel = lazy(() => import('./ReviewerPanel').then((m) => ({ default: m.ReviewerPanel })));
const ComparePanel = lazy(() => import('./ComparePanel').then((m) => ({ default: m.ComparePanel })));
const ExercisesPanel = lazy(() => import('./ExercisesPanel').then((m) => ({ default: m.ExercisesPanel })));

/** While a panel's code loads: the same busy line a panel shows while the worker computes. */
const LOADING = (
  <p className="panel-busy" role="status" data-busy="true">
    Loading the panel…
  </p>
);

/**
 * Every part of docs/requirements.md one click from the tab bar (in the top bar): the race (the workbench: diagram,
 * facts, inspector, timeline), the ledger's scenarios over the same workbench, and the panels. Tabs
 * follow the ARIA tabs pattern (← → move between them).
 */
export function TabBar() {
  const tab = usePanelsStore((s) => s.tab);
  // The top bar follows the tab (tabFollow.ts): a tab whose view belongs to other scenarios selects one of them.
  const setTab = usePanelsStore((s) => s.setTab);
  const buttons = useRef(new Map<TabId, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TABS.findIndex((t) => t.id === tab);
    const next = event.key === 'ArrowRight' ? index + 1 : event.key === 'ArrowLeft' ? index - 1 : null;
    if (next === null) return;
    event.preventDefault();
    event.stopPropagation();
    const target = TABS[(next + TABS.length) % TABS.length]?.id ?? tab;
    setTab(target);
    buttons.current.get(target)?.focus();
  };

  return (
    <div className="lab-tabs-bar">
      <div role="tablist" aria-label="Lab sections" onKeyDown={onKeyDown}>
        {TABS.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              if (el === null) buttons.current.delete(t.id);
              else buttons.current.set(t.id, el);
            }}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`tabpanel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
    </div>
  );
}

/** The selected tab's panel: the workbench for Race and Ledger, a panel (loaded on first use) for the rest. */
export function TabPanel({ race, besidePanels }: { race: ReactNode; besidePanels?: ReactNode }) {
  const tab = usePanelsStore((s) => s.tab);
  const workbench = tab === 'race' || tab === 'ledger';
  return (
    <div
      role="tabpanel"
      id={`tabpanel-${tab}`}
      aria-labelledby={`tab-${tab}`}
      className={workbench ? 'lab-tabpanel is-workbench' : 'lab-tabpanel is-panel'}
    >
      {workbench ? (
        race
      ) : (
        <PartBoundary key={tab} name={`the ${TABS.find((t) => t.id === tab)?.label ?? tab} tab`} fallback={LOADING}>
          {tab === 'tasks' && <TasksPanel />}
          {tab === 'buffer' && <BufferPanel />}
          {tab === 'compare' && <ComparePanel />}
          {tab === 'backoff' && <BackoffPanel />}
          {tab === 'proxy' && <ProxyPanel />}
          {tab === 'verification' && <VerificationPanel />}
          {tab === 'reviewer' && <ReviewerPanel />}
          {tab === 'exercises' && <ExercisesPanel />}
          {besidePanels}
        </PartBoundary>
      )}
    </div>
  );
}
