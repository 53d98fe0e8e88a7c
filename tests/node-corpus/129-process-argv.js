// process.argv: node, the script, then the arguments as given (see the .args file).
const path = require('path');
console.log(process.argv.length, path.basename(process.argv[1]));
console.log(JSON.stringify(process.argv.slice(2)));
console.log(path.basename(process.argv0), process.execArgv.length);
