import type { Transcript } from '../../engine';
import { forwardRef, lazy, Suspense, useEffect, useImperativeHandle, useRef, useState, type RefObject } from 'react';
import { useRunStore } from '../../store/runStore';
import { PartBoundary } from './PartBoundary';
import { selectedKind } from './selectors';
import type { FocusOnMove } from './ExplorePanel';
import type { ShortcutsDialogHandle } from './ShortcutsDialog';

/**
 * Parts of the page that most visits never show, loaded on first use so the first load carries
 * less script (the initial JS stays at most 150 kB gzip): the stored ledger's panel, shown only with
 * a ledger scenario, the Ledger tab's part of the side column, the explorer's panel, a message's faults
 * (its context menu and the inspector's buttons), the `?` list of shortcuts, loaded when first asked for,
 * and the note beside a real SDK's run.
 */

const LedgerPanelPart = lazy(() => import('./LedgerPanel').then((module) => ({ default: module.LedgerPanel })));
const LedgerTabPart = lazy(() => import('../panels/LedgerTab').then((module) => ({ default: module.LedgerTab })));
const ExplorePanelPart = lazy(() => import('./ExplorePanel').then((module) => ({ default: module.ExplorePanel })));
const ShortcutsDialogPart = lazy(() =>
  import('./ShortcutsDialog').then((module) => ({ default: module.ShortcutsDialog })),
);
const FaultMenuPart = lazy(() => import('./FaultMenu').then((module) => ({ default: module.FaultMenu })));
const FaultButtonsPart = lazy(() => import('./FaultMenu').then((module) => ({ default: module.FaultButtons })));
const SdkRunPart = lazy(() => import('./SdkRun').then((module) => ({ default: module.SdkRun })));

export type { ShortcutsDialogHandle };

/** What a run of a real SDK says beside its facts (see SdkRun.tsx): loaded with the first SDK run, as the SDK itself is. */
export function SdkRun({ transcript }: { transcript: Transcript }) {
  if (transcript.sdk === undefined) return null;
  return (
    <Suspense fallback={null}>
      <SdkRunPart transcript={transcript} />
    </Suspense>
  );
}

/** Every ordering (see ExplorePanel.tsx): below the fold of the side column, so it loads just after the page. */
export function ExplorePanel({ focusOnMove }: { focusOnMove: FocusOnMove }) {
  return (
    <PartBoundary name="the explorer panel">
      <ExplorePanelPart focusOnMove={focusOnMove} />
    </PartBoundary>
  );
}

/** The stored ledger's panel, with ledger scenarios only (see LedgerPanel.tsx). */
export function LedgerPanel() {
  const kind = useRunStore(selectedKind);
  if (kind !== 'ledger') return null;
  return (
    <PartBoundary name="the stored ledger panel">
      <LedgerPanelPart />
    </PartBoundary>
  );
}

/** The Ledger tab's part of the side column (see LedgerTab.tsx). */
export function LedgerTab() {
  return (
    <PartBoundary name="the Ledger tab">
      <LedgerTabPart />
    </PartBoundary>
  );
}

/** The shortcuts dialog (see ShortcutsDialog.tsx): `open()` before it has loaded opens it once it has. */
export const ShortcutsDialog = forwardRef<ShortcutsDialogHandle>(function ShortcutsDialog(_props, ref) {
  const [asked, setAsked] = useState(0);
  const dialog = useRef<ShortcutsDialogHandle>(null);
  useImperativeHandle(ref, () => ({
    open() {
      if (dialog.current === null) setAsked((count) => count + 1);
      else dialog.current.open();
    },
  }));
  if (asked === 0) return null;
  return (
    <PartBoundary name="the keyboard shortcuts">
      <OpenOnLoad asked={asked} dialog={dialog} />
    </PartBoundary>
  );
});

function OpenOnLoad({ asked, dialog }: { asked: number; dialog: RefObject<ShortcutsDialogHandle | null> }) {
  useEffect(() => dialog.current?.open(), [asked, dialog]);
  return <ShortcutsDialogPart ref={dialog} />;
}

/** A message's context menu of faults (see FaultMenu.tsx), loaded on the first right-click. */
export function FaultMenu(props: { seq: number; x: number; y: number; onClose(): void }) {
  return (
    <PartBoundary name="the fault menu">
      <FaultMenuPart {...props} />
    </PartBoundary>
  );
}

/** The inspector's fault buttons (see FaultMenu.tsx). */
export function FaultButtons({ seq }: { seq: number }) {
  return (
    <PartBoundary name="the fault buttons">
      <FaultButtonsPart seq={seq} />
    </PartBoundary>
  );
}
