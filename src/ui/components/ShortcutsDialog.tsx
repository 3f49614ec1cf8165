import { forwardRef, useImperativeHandle, useRef } from 'react';

export interface ShortcutsDialogHandle {
  open(): void;
}

/** The keys the lab answers to (see useKeyboardShortcuts), in a modal dialog that Escape closes. */
export const SHORTCUTS: ReadonlyArray<readonly [keys: string[], what: string]> = [
  [['Space', '.'], 'Play or pause (a presenter remote sends “.”)'],
  [['→'], 'Step forward'],
  [['←'], 'Step back'],
  [['Home'], 'Reset to the start'],
  [['End'], 'Jump to the end of the run'],
  [['L'], 'Linear time on or off (the diagram’s time axis)'],
  [['P'], 'Presentation mode on or off: large type, the diagram, the facts and the playback'],
  [['Esc'], 'Leave presentation mode (or close this list)'],
  [['Q'], 'Predict mode on or off: the replay stops at the race point and asks'],
  [['1', '2', '3', '4'], 'At the race point: pick an answer to the question (the scenario offers two to four)'],
  [['→', 'Space'], 'At the race point: reveal, jumping to the event that decides the race'],
  [['?'], 'Show these shortcuts'],
];

export const ShortcutsDialog = forwardRef<ShortcutsDialogHandle>(function ShortcutsDialog(_props, ref) {
  const dialog = useRef<HTMLDialogElement>(null);
  useImperativeHandle(ref, () => ({
    open() {
      if (dialog.current?.open === false) dialog.current.showModal();
    },
  }));
  return (
    <dialog ref={dialog} className="lab-dialog" aria-labelledby="shortcuts-heading">
      <h2 id="shortcuts-heading">Keyboard shortcuts</h2>
      <p>They work anywhere on the page except while typing in a field.</p>
      <dl className="lab-shortcuts">
        {SHORTCUTS.map(([keys, what]) => (
          <div key={what} className="lab-shortcut">
            <dt>
              {keys.map((key, index) => (
                <span key={key}>
                  {index > 0 && (keys.length > 2 ? ' ' : ' or ')}
                  <kbd>{key}</kbd>
                </span>
              ))}
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <form method="dialog">
        <button type="submit" className="lab-button" autoFocus>
          Close
        </button>
      </form>
    </dialog>
  );
});
