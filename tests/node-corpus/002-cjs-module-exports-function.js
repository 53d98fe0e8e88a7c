// module.exports replaced by a function, with a property on it.
const greet = require('./fixtures/cjs/greet');
console.log(typeof greet, greet.name, greet.kind);
console.log(greet('corpus'));
