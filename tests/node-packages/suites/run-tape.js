// Runs every .js file of a directory as tape tests: requiring a file
// registers its tests, and tape prints the TAP summary once all have run
// (exit code 1 if any assertion failed).
const fs = require('fs');
const path = require('path');
const dir = path.resolve(process.argv[2]);
for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.js')).sort()) {
  require(path.join(dir, name));
}
