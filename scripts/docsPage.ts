// Renders a page of docs/ (the requirement catalogue) as a static HTML file the built lab serves beside
// itself, so the Verification tab can link each id to its definition offline and under the page's
// security policy (no script, no inline style). Only the Markdown those pages use is understood:
// headings, paragraphs, lists, tables, fenced code, `code`, **bold**, *emphasis* and links.

/** The anchor GitHub gives a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a Markdown text's headings define. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (heading !== null) anchors.add(headingSlug(heading[1] as string));
  }
  return anchors;
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A link as the rendered page can follow it: an anchor of the page itself stays, a link into this page
 * by file name becomes its anchor, a web address stays; any other document of the repository is not
 * served beside the lab, so it is shown as its name, not as a link that would fail.
 */
function inline(text: string, self: string): string {
  const parts = text.split(/(`[^`]+`)/);
  return parts
    .map((part) => {
      if (part.startsWith('`') && part.endsWith('`') && part.length > 1)
        return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      return escapeHtml(part)
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_whole, label: string, target: string) => {
          if (target.startsWith('#')) return `<a href="${target}">${label}</a>`;
          if (target.startsWith(`${self}#`)) return `<a href="${target.slice(self.length)}">${label}</a>`;
          if (/^https:\/\//.test(target)) return `<a href="${target}">${label}</a>`;
          return label;
        })
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/(^|[\s(])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>');
    })
    .join('');
}

/** The Markdown of one docs page as a standalone HTML document titled by its first heading. */
export function renderDocsPage(markdown: string, self: string, stylesheet: string | null): string {
  const lines = markdown.split('\n');
  const body: string[] = [];
  let title = self;
  let paragraph: string[] = [];
  let list: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) body.push(`<p>${inline(paragraph.join(' '), self)}</p>`);
    if (list.length > 0) body.push(`<ul>${list.map((item) => `<li>${inline(item, self)}</li>`).join('')}</ul>`);
    paragraph = [];
    list = [];
  };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    if (line.startsWith('```')) {
      flush();
      const code: string[] = [];
      for (i += 1; i < lines.length && !(lines[i] as string).startsWith('```'); i += 1) code.push(lines[i] as string);
      body.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6}) (.+)$/.exec(line);
    if (heading !== null) {
      flush();
      const level = (heading[1] as string).length;
      const text = heading[2] as string;
      if (level === 1) title = text;
      body.push(`<h${level} id="${headingSlug(text)}">${inline(text, self)}</h${level}>`);
      continue;
    }
    if (line.startsWith('|')) {
      flush();
      const rows: string[][] = [];
      for (; i < lines.length && (lines[i] as string).startsWith('|'); i += 1) {
        const row = (lines[i] as string).trim();
        // The row under the header (|---|---|) only says it is a table.
        if (!/^\|[\s|:-]+\|$/.test(row))
          rows.push(
            row
              .slice(1, -1)
              .split(' | ')
              .map((cell) => cell.trim()),
          );
      }
      i -= 1;
      const [head, ...rest] = rows;
      body.push(
        `<table><thead><tr>${(head ?? []).map((cell) => `<th>${inline(cell, self)}</th>`).join('')}</tr></thead><tbody>${rest.map((row) => `<tr>${row.map((cell) => `<td>${inline(cell, self)}</td>`).join('')}</tr>`).join('')}</tbody></table>`,
      );
      continue;
    }
    if (line.startsWith('- ')) {
      if (paragraph.length > 0) flush();
      list.push(line.slice(2));
      continue;
    }
    // A line under a list item continues it (indented or not, as Markdown reads it).
    if (list.length > 0) {
      list[list.length - 1] += ` ${line.trim()}`;
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    paragraph.push(line);
  }
  flush();
  const styles = stylesheet === null ? '' : `<link rel="stylesheet" href="${stylesheet}">`;
  return `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeHtml(title)} — MCP Reliability Lab</title>\n${styles}\n</head>\n<body class="docs-page">\n<main>\n<p><a href="./">← Back to the lab</a></p>\n${body.join('\n')}\n</main>\n</body>\n</html>\n`;
}
