import { Fragment, type ReactNode } from 'react';

/**
 * `text` with a soft break (`<wbr>`) at every boundary `at` matches (a zero-width pattern such as
 * `/(?<=\/)/` after a slash, or `/(?=[A-Z])/` before a capital): a long name may wrap there, never
 * inside a word.
 */
export function withBreaks(text: string, at: RegExp): ReactNode[] {
  return text.split(at).map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}
