import type { ReactNode } from 'react';
import { KNOWN_BUGS } from '../../gallery/knownBugs';
import { openBugInCompare, openBugInDiagram } from '../../store/knownBugs';
import './knownBugs.css';

/**
 * **Known bugs**: the gallery of defects of the MCP packages people install today, a section of the
 * Compare tab (where runs are put side by side; the run controls above keep their one row at 1280 px).
 * Each entry names the package and version, the upstream reference, the spec sentence it breaks and the
 * workaround, and opens the real package's run in the diagram (the Race tab), or in Compare beside the
 * lab's model. Plain buttons and links: Tab reaches each, Enter or Space acts.
 */
export function KnownBugs() {
  return (
    <section className="known-bugs-list" aria-labelledby="known-bugs-title">
      <h3 id="known-bugs-title">Known bugs</h3>
      <p className="known-bugs-lede">
        Defects of the packages people install today, each on record upstream. Each runs the real package, unpatched, on
        the lab&apos;s virtual clock (a server: the probe&apos;s recording of it), beside the lab&apos;s model.
      </p>
      <ul>
        {KNOWN_BUGS.map((bug) => (
          <li key={bug.id} data-bug={bug.id}>
            <h4>{bug.title}</h4>
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
              <button
                type="button"
                className="panel-button"
                aria-label={`Open ${bug.id} in the diagram`}
                onClick={() => void openBugInDiagram(bug)}
              >
                Diagram
              </button>
              <button
                type="button"
                className="panel-button"
                aria-label={`Open ${bug.id} in Compare`}
                onClick={() => void openBugInCompare(bug)}
              >
                Compare
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
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
