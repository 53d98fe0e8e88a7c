// util.inherits, deprecate (warning on stderr only), TextEncoder/Decoder, isArray.
const util = require('util');
function Base() {}
Base.prototype.hello = function () { return 'hello from base'; };
function Child() { Base.call(this); }
util.inherits(Child, Base);
console.log(new Child().hello(), Child.super_ === Base);
const old = util.deprecate(() => 'still works', 'old() is deprecated', 'DEP_CORPUS');
console.log(old(), old());
const enc = new util.TextEncoder().encode('héllo');
console.log(enc.length, new util.TextDecoder().decode(enc));
console.log(util.isArray([]), typeof util.stripVTControlCharacters, util.stripVTControlCharacters('\u001b[31mred\u001b[39m'));
console.log(util.toUSVString('a\ud800b'), util.inspect.defaultOptions.depth);
