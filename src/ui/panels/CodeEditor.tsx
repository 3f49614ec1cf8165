import { javascript } from '@codemirror/lang-javascript';
import { EditorSelection, Prec, StateEffect, StateField, type Extension } from '@codemirror/state';
import { Decoration, EditorView, keymap, lineNumbers, type DecorationSet } from '@codemirror/view';
import { minimalSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

/**
 * The student's code in a CodeMirror 6 editor (this module is a chunk of its own, loaded when the
 * Exercises tab first shows it). The store holds the code: the editor reports every change and takes
 * the store's value whenever it differs (a reset, an upload, another exercise). An error with a line
 * marks that line and, when asked (`reveal` moves), puts the cursor on it and scrolls it into view.
 * Tab is left to the page's focus order (no Tab-to-indent), so the editor never traps the keyboard.
 *
 * The editor lives in a shadow root of its own: CodeMirror mounts its styles there as a constructed
 * stylesheet (adoptedStyleSheets), where in the document it would add a <style> element, which the
 * page's Content-Security-Policy (style-src 'self', no 'unsafe-inline') refuses.
 */

const setErrorLine = StateEffect.define<number | null>();

const errorLine = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, transaction) {
    let next = marks.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (!effect.is(setErrorLine)) continue;
      const line = effect.value;
      if (line === null || line < 1 || line > transaction.state.doc.lines) next = Decoration.none;
      else
        next = Decoration.set([
          Decoration.line({ class: 'cm-error-line', attributes: { title: 'The error is on this line' } }).range(
            transaction.state.doc.line(line).from,
          ),
        ]);
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const THEME = EditorView.theme({
  '&': {
    height: '100%',
    fontSize: '0.95rem',
    border: '1px solid var(--rule)',
    borderRadius: '6px',
    backgroundColor: 'var(--paper)',
  },
  '&.cm-focused': { outline: '3px solid var(--accent)', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.45' },
  '.cm-error-line': { backgroundColor: 'var(--error-bg)', boxShadow: 'inset 3px 0 0 #b91c1c' },
});

export interface CodeEditorProps {
  value: string;
  onChange(value: string): void;
  /** The line (1-based) the last Check's error names; null: none. */
  errorLine: number | null;
  errorColumn: number | null;
  /** Moves when the cursor should go to the error line. */
  reveal: number;
}

export default function CodeEditor({ value, onChange, errorLine: line, errorColumn, reveal }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    if (host.current === null) return;
    const extensions: Extension[] = [
      // Ctrl+Enter is the tab's Check (the panel hears it bubble up): the editor inserts no line for it.
      Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => true }])),
      lineNumbers(),
      minimalSetup,
      javascript(),
      errorLine,
      THEME,
      EditorView.lineWrapping,
      // tabindex spelled out: an accessibility checker counts a contenteditable as focusable only with it.
      EditorView.contentAttributes.of({ 'aria-label': 'Your code', 'aria-multiline': 'true', tabindex: '0' }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) changed.current(update.state.doc.toString());
      }),
    ];
    const root = host.current.shadowRoot ?? host.current.attachShadow({ mode: 'open' });
    const parent = document.createElement('div');
    parent.style.height = '100%';
    root.append(parent);
    const created = new EditorView({ doc: value, extensions, parent, root });
    view.current = created;
    return () => {
      created.destroy();
      parent.remove();
      view.current = null;
    };
    // The editor is made once; later values arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (editor === null || editor.state.doc.toString() === value) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const editor = view.current;
    if (editor === null) return;
    editor.dispatch({ effects: setErrorLine.of(line) });
  }, [line, value]);

  useEffect(() => {
    const editor = view.current;
    if (editor === null || reveal === 0 || line === null || line > editor.state.doc.lines) return;
    const at = editor.state.doc.line(line);
    const head = Math.min(at.to, at.from + Math.max(0, (errorColumn ?? 1) - 1));
    editor.dispatch({
      selection: EditorSelection.cursor(head),
      effects: EditorView.scrollIntoView(head, { y: 'center' }),
    });
    // The cursor is put on the line once per Check, not on every keystroke after it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reveal]);

  return <div ref={host} className="exercise-editor-host" />;
}
