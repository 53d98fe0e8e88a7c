// Runs a suite written for the old `test` runner: the file exports
// `exports['test ...'] = function (assert) {...}`; each is called with
// node:assert. Prints a TAP-style summary and exits 1 on any failure.
const assert = require('assert');
const path = require('path');
const suite = require(path.resolve(process.argv[2]));
let pass = 0;
let fail = 0;
for (const [name, fn] of Object.entries(suite)) {
  if (!name.startsWith('test') || typeof fn !== 'function') continue;
  try {
    fn(assert);
    pass++;
    console.log(`ok ${pass + fail} ${name}`);
  } catch (e) {
    fail++;
    console.log(`not ok ${pass + fail} ${name}: ${e.message.split('\n')[0]}`);
  }
}
console.log(`# tests ${pass + fail}\n# pass ${pass}\n# fail ${fail}`);
process.exitCode = fail ? 1 : 0;
