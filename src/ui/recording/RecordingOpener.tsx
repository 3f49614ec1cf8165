import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useRecordingStore, type RecordingProgress } from '../../store/recording';
import './recording.css';

/** Whether a drag carries files (text or links dragged over the page are not ours to take). */
const carriesFiles = (event: DragEvent): boolean =>
  event.dataTransfer !== null && [...event.dataTransfer.types].includes('Files');

/**
 * **Open recorded transcript**: a `lab probe --json` file, picked with the button (a native button:
 * Enter and Space open the picker) or dropped anywhere on the page. The file is checked in the lab
 * worker; a refused one leaves the page as it was (RecordingNotice says why).
 */
export function RecordingOpener() {
  const open = useRecordingStore((state) => state.open);
  const opening = useRecordingStore((state) => state.opening);
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    // Entering and leaving child elements fire in pairs: a depth count says when the drag left the page.
    let depth = 0;
    const enter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth += 1;
      setDragging(true);
    };
    const over = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      // Without this the browser opens the file itself and the lab is gone.
      event.preventDefault();
      if (event.dataTransfer !== null) event.dataTransfer.dropEffect = 'copy';
    };
    const leave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth = 0;
      setDragging(false);
      const file = event.dataTransfer?.files[0];
      if (file !== undefined) void open(file);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [open]);

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared, so that picking the same file again opens it again.
    event.target.value = '';
    if (file !== undefined) void open(file);
  };

  return (
    <div className="recording-open">
      <button
        type="button"
        className="lab-button"
        aria-busy={opening}
        title="Open a transcript that npm run lab -- probe --json wrote about a real MCP server (you can also drop the file anywhere on the page)"
        onClick={() => input.current?.click()}
      >
        Open recorded transcript
      </button>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        hidden
        tabIndex={-1}
        aria-hidden="true"
        data-testid="recording-file"
        onChange={onPick}
      />
      {dragging && (
        <div className="recording-drop" aria-hidden="true">
          Drop a <code>lab probe --json</code> transcript to open it
        </div>
      )}
    </div>
  );
}

const STAGE_WORDS: Record<RecordingProgress['stage'], string> = {
  checking: 'checking',
  converting: 'reading',
  wording: 'wording',
  'laying out': 'laying out',
};

/** While a recording opens: which stage the worker is in and how many of the file's events it has done (the worker reports them). */
export function RecordingProgressLine() {
  const opening = useRecordingStore((state) => state.opening);
  const file = useRecordingStore((state) => state.openingFile);
  const progress = useRecordingStore((state) => state.progress);
  if (!opening) return null;
  const events = progress === null ? '' : progress.total.toLocaleString('en');
  const text =
    progress === null
      ? `Opening ${file ?? 'the file'}: reading it…`
      : progress.stage === 'laying out'
        ? `Opening ${file ?? 'the file'}: laying out the diagram of its ${events} events…`
        : `Opening ${file ?? 'the file'}: ${STAGE_WORDS[progress.stage]} its events… ${progress.done.toLocaleString('en')} of ${events}`;
  return (
    <div className="lab-busy-row recording-progress">
      <p className="lab-busy" role="status" data-busy="true" data-stage={progress?.stage ?? 'reading'}>
        {text}
      </p>
      {progress !== null && progress.stage !== 'laying out' && (
        <progress max={Math.max(1, progress.total)} value={progress.done} aria-label="Opening the recording" />
      )}
    </div>
  );
}

/** Why a file was not opened: the check that failed. Nothing else on the page changed. */
export function RecordingNotice() {
  const refusal = useRecordingStore((state) => state.refusal);
  const dismiss = useRecordingStore((state) => state.dismiss);
  if (refusal === null) return null;
  return (
    <div role="alert" className="lab-alert recording-refused">
      <strong>{refusal.code}</strong> Could not open {refusal.file}: {refusal.message}. The page is unchanged.{' '}
      <button type="button" className="lab-button" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}
