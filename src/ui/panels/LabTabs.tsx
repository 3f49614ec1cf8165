import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { usePanelsStore } from '../../store/panels';
import { TABS, type TabId } from '../../store/panelsStore';
import { BackoffPanel } from './BackoffPanel';
import { BufferPanel } from './BufferPanel';
import { InstructorBar, PredictPrompt } from './Instructor';
import { LedgerTab } from './LedgerTab';
import { ProxyPanel } from './ProxyPanel';
import { ReviewerPanel } from './ReviewerPanel';
import { TasksPanel } from './TasksPanel';
import { VerificationPanel } from './VerificationPanel';
import './panels.css';

/**
 * Every SPEC section one click from the tab bar: the race (the diagram and facts), the ledger's
 * scenarios over the same diagram (the ledger panel itself stays on the page), and the panels. Tabs follow the ARIA tabs pattern (← → move between them).
 */
export function LabTabs({ race }: { race: ReactNode }) {
  const tab = usePanelsStore((s) => s.tab);
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
    <div className="lab-tabs">
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
        <InstructorBar />
      </div>
      <div role="tabpanel" id={`tabpanel-${tab}`} aria-labelledby={`tab-${tab}`} className="lab-tabpanel">
        {tab === 'race' && (
          <>
            <PredictPrompt />
            {race}
          </>
        )}
        {tab === 'ledger' && (
          <>
            <LedgerTab />
            {race}
          </>
        )}
        {tab === 'tasks' && <TasksPanel />}
        {tab === 'buffer' && <BufferPanel />}
        {tab === 'backoff' && <BackoffPanel />}
        {tab === 'proxy' && <ProxyPanel />}
        {tab === 'verification' && <VerificationPanel />}
        {tab === 'reviewer' && <ReviewerPanel />}
      </div>
    </div>
  );
}
