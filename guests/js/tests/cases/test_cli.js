// `node --test`'s runner (the internal runCli) on a tree: discovery (*.test.*, *_test.*,
// test-*.*, files under test/, not node_modules), one process per file, the merged
// TAP and summary, a file that throws and one without tests. Child processes are
// stood in for by outputs recorded from real `node FILE` runs (rec/); the expected
// stdout is real `node --test` on the same tree, with /work as its directory.
import test from 'node:test';
import fs from 'node:fs';
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
const spawn = (file) => {
  const key = `rec/${file.slice('/work/'.length).replaceAll('/', '_')}`;
  return {
    status: Number(fs.readFileSync(`${key}.status`, 'utf8')),
    stdout: fs.readFileSync(`${key}.out`, 'utf8'),
    stderr: fs.readFileSync(`${key}.err`, 'utf8'),
  };
};
process.exitCode = test.runCli([], spawn);
