// The module wrapper's `this`, arguments, and module fields.
console.log(JSON.stringify(require('./fixtures/cjs/this-and-args')));
console.log(typeof module, typeof exports, typeof require, exports === module.exports);
console.log(this === module.exports, typeof require.resolve, typeof require.cache);
console.log(Array.isArray(module.paths), module.loaded, module.children.length);
require('./fixtures/cjs/math');
console.log(module.children.length, typeof module.require);
