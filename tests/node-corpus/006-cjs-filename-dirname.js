// __filename/__dirname of the main module and of a required one.
const path = require('path');
console.log(path.basename(__filename), path.basename(__dirname) !== '');
console.log(path.relative(process.cwd(), __filename));
console.log(JSON.stringify(require('./fixtures/cjs/where')));
console.log(require.main === module, module.id);
