import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { KNOWN_BUGS, type KnownBug } from '../../gallery/knownBugs';
import { openBugInCompare, openBugInDiagram } from '../../store/knownBugs';
import './knownBugs.css';

/**
 * **Known bugs**: the gallery of defects of the MCP packages people install today, beside the run
 * controls. The button opens a list (Escape or the button closes it, focus returns to the button); each
 * entry names the package and version, the upstream reference, the spec sentence it breaks and the
 * workaround, and opens the real package's run in the diagram, or in Compare beside the lab's model.
 */
export function KnownBugs() {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLElement>(null);
  const id = useId();
  useEffect(() => {
    if (open) list.current?.focus();
  }, [open]);
  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    close();
  };
  const act = (action: (bug: KnownBug) => Promise<void>, bug: KnownBug) => {
    setOpen(false);
    void action(bug);
  };
  return (
    <div className="known-bugs">
      <button
        ref={toggle}
        type="button"
        className="lab-button"
        aria-expanded={open}
        aria-controls={id}
        title="Defects of real MCP packages (the SDKs, server-everything), each reproduced on the installed package beside the lab's model"
        onClick={() => setOpen(!open)}
      >
        Known bugs
      </button>
      {open && (
        <section ref={list} id={id} className="known-bugs-list" aria-label="Known bugs" tabIndex={-1} onKeyDown={onKeyDown}>
          <p className="known-bugs-lede">Each runs the real package, unpatched, on the lab&apos;s virtual clock (a server: the probe&apos;s recording of it), beside the lab&apos;s model.</p>
          <ul>
            {KNOWN_BUGS.map((bug) => (
              <li key={bug.id} data-bug={bug.id}>
                <h3>{bug.title}</h3>
                <p className="known-bugs-meta">
                  <code>{bug.id}</code> · {bug.packages.map((p) => `${p.name} ${p.version}`).join(', ')} ·{' '}
                  {bug.upstream.length === 0 ? (
                    'no upstream report on record'
                  ) : (
                    <a href={bug.upstream[0]?.url} target="_blank" rel="noreferrer noopener">
                      {bug.upstream[0]?.ref}
                    </a>
                  )}
                </p>
                <p className="known-bugs-spec">
                  {bug.spec[0] === undefined ? null : (
                    <>
                      <strong>
                        {bug.spec[0].revision} {bug.spec[0].page}
                        {bug.spec[0].level === 'none' ? '' : `, ${bug.spec[0].level}`}:
                      </strong>{' '}
                      {prose(bug.spec[0].text)}
                    </>
                  )}
                </p>
                <p className="known-bugs-workaround">
                  <strong>Workaround:</strong> {prose(bug.workaround)}
                </p>
                <div className="known-bugs-actions">
                  <button type="button" className="lab-button" aria-label={`Open ${bug.id} in the diagram`} onClick={() => act(openBugInDiagram, bug)}>
                    Diagram
                  </button>
                  <button type="button" className="lab-button" aria-label={`Open ${bug.id} in Compare`} onClick={() => act(openBugInCompare, bug)}>
                    Compare
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** The entries' text as written in the data: `code` in backticks, the spec's **emphasis** and _emphasis_ markers dropped. */
function prose(text: string): ReactNode[] {
  return text
    .replaceAll('**', '')
    .replace(/(^|\s)_([^_]+)_(?=\s|$)/g, '$1$2')
    .split('`')
    .map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part));
}
