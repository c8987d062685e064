/**
 * The same-run baseline of `npm run bench:web`: a static page with a fixed amount of main-thread
 * work after its first paint (four tasks, each drawing a table of 300 rows, laying it out and
 * sorting 20,000 numbers), loaded like the app's pages, in the same browser, at the same slowdown,
 * in turn with them. Its figures move with the machine's speed and load, never with the app's
 * code; the pages' blocking time is read as a ratio to its.
 */
export const REFERENCE_PATH = '/bench-reference';

/**
 * The slow machine of docs/benchmarks.md (Front end) by this page: its main thread's CPU time
 * there, slowdown included. Calibrated so that the build before ADR 0043 makes the 293 ms of
 * blocking time on /products that Lighthouse reported on that machine.
 */
export const SLOW_REFERENCE_DEFAULT_MS = 1800;

const TASKS = 4;
const ROWS = 300;
const NUMBERS = 20_000;

export const REFERENCE_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>bench:web reference</title>
<style>body { font: 16px system-ui, sans-serif; margin: 1rem } td { padding: 2px 4px; border-bottom: 1px solid #ccc }</style>
</head>
<body>
<h1>Reference work</h1>
<p>A fixed amount of work after the first paint, the same on every run.</p>
<div id="work"></div>
<script>
  let seed = 1;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const task = (left) => {
    const table = document.createElement('table');
    for (let row = 0; row < ${ROWS}; row++) {
      const tr = table.insertRow();
      for (let cell = 0; cell < 4; cell++) tr.insertCell().textContent = 'Row ' + row + ', cell ' + cell + ': ' + random().toFixed(6);
    }
    const work = document.getElementById('work');
    work.replaceChildren(table);
    void work.offsetHeight;
    Array.from({ length: ${NUMBERS} }, random).sort((a, b) => a - b);
    if (left > 1) setTimeout(() => task(left - 1), 0);
  };
  addEventListener('load', () => requestAnimationFrame(() => setTimeout(() => task(${TASKS}), 0)));
</script>
</body>
</html>`;
