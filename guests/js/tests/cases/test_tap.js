// node:test's TAP output for passing, failing (assertion, thrown, deep diff),
// skipped, todo, async, callback and nested tests, suites with hooks, diagnostics,
// and the summary; a failure sets exit code 1. The tests live in a workspace file
// so that `location:` and assert.ok's quoted source are comparable.
// What varies between runs is masked in stdout: durations, stacks (their frames
// name engine internals) and the file of `location:` (its line and column stay).
const write = process.stdout.write.bind(process.stdout);
let stackIndent = -1;
function mask(line) {
  const indent = /^ */.exec(line)[0].length;
  if (stackIndent >= 0 && indent > stackIndent && line.trim() !== '') return null;
  stackIndent = /^ *stack: \|-$/.test(line) ? indent : -1;
  if (stackIndent >= 0) return null;
  return line
    .replace(/duration_ms(:?) [0-9.e+-]+/, 'duration_ms$1 *')
    .replace(/location: '.*(:\d+:\d+)'/, "location: '*$1'");
}
process.stdout.write = (chunk, ...rest) => {
  const lines = String(chunk).split('\n').map(mask).filter((l) => l !== null);
  return write(lines.join('\n'), ...rest);
};
await import('./body.mjs');
