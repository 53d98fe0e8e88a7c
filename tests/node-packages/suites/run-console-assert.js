// Runs a suite written with console.assert, which only logs a failure:
// each call is counted, and a false one fails the run (exit 1).
const path = require('path');
let pass = 0;
let fail = 0;
console.assert = (ok, ...msg) => {
  if (ok) {
    pass++;
  } else {
    fail++;
    console.log('not ok:', ...msg);
  }
};
process.on('exit', (code) => {
  console.log(`# tests ${pass + fail}\n# pass ${pass}\n# fail ${fail}`);
  if (fail || pass === 0) process.exitCode = 1;
});
require(path.resolve(process.argv[2]));
