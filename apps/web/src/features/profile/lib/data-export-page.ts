import type { DataExport } from '@soundid/contracts';
import { dataExportText as t } from '@soundid/contracts/ui-text';

/**
 * The readable page of a data export (ADR 0038), made here from the JSON rather than by the
 * service: a table per section, every value escaped, so that a mail subject or a device name
 * with markup in it shows as text. The page is a downloaded file: its styles are inline.
 */
export function dataExportPage(data: DataExport): string {
  const sections = Object.entries(data)
    .filter(([name]) => name !== 'Format' && name !== 'ExportedAt')
    .map(([name, value]) => `<section>\n<h2>${escapeHtml(t.sections[name] ?? name)}</h2>\n${render(value)}\n</section>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t.pageTitle)}</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem; color: #1a1a1a; }
h2 { margin-top: 2rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { border: 1px solid #ddd; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f4f4f4; }
dl { display: grid; grid-template-columns: max-content auto; gap: 0.25rem 1rem; margin: 0.5rem 0; }
dt { font-weight: 600; }
dd { margin: 0; }
</style>
</head>
<body>
<h1>${escapeHtml(t.pageTitle)}</h1>
<p>${escapeHtml(t.exportedAt)}: ${escapeHtml(data.ExportedAt)} (${escapeHtml(data.Format)})</p>
${sections}
</body>
</html>
`;
}

function render(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return renderList(value);
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return escapeHtml(t.none);
    return `<dl>${entries.map(([key, inner]) => `<dt>${escapeHtml(key)}</dt><dd>${render(inner)}</dd>`).join('')}</dl>`;
  }
  return escapeHtml(String(value));
}

/** Rows of objects as a table (the union of their fields as columns), anything else as a list. */
function renderList(rows: unknown[]): string {
  if (rows.length === 0) return `<p>${escapeHtml(t.none)}</p>`;
  const objects = rows.every((row) => row !== null && typeof row === 'object' && !Array.isArray(row));
  if (!objects) return `<ul>${rows.map((row) => `<li>${render(row)}</li>`).join('')}</ul>`;
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row as object)))];
  const head = columns.map((column) => `<th scope="col">${escapeHtml(column)}</th>`).join('');
  const body = rows
    .map(
      (row) =>
        `<tr>${columns.map((column) => `<td>${render((row as Record<string, unknown>)[column])}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
