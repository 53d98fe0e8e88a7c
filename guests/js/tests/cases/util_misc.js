// util: deprecate (once per code, node's hint after the first; the pid is masked),
// styleText (a single format only on a colour stream), toUSVString,
// stripVTControlCharacters, promisify (custom, first value), callbackify (falsy
// rejections), argument errors.
import util from 'node:util';
const writeErr = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) => writeErr(String(chunk).replace(/\(node:\d+\)/g, '(node:PID)'), ...rest);
const f = util.deprecate(() => 1, 'f is old', 'DEP0999');
f(); f();
const f2 = util.deprecate(() => 1, 'same code', 'DEP0999');
f2();
const g = util.deprecate(() => 2, 'g is old');
console.log(g(), typeof util.deprecate(class A {}, 'x'));
console.log(JSON.stringify(util.styleText('red', 'hi')), JSON.stringify(util.styleText(['bold', 'underline'], 'x')));
console.log(JSON.stringify(util.styleText('green', 'ok', { validateStream: false })));
try { util.styleText('nope', 'x'); } catch (e) { console.log(e.code, e.message); }
console.log(util.toUSVString('a\ud800b\udc00\ud83d\ude00'), util.stripVTControlCharacters('\u001b[31mred\u001b[39m\u001b]8;;http://x\u0007link\u001b]8;;\u0007'));
const p = util.promisify((a, cb) => cb(null, a, 'second'));
console.log(await p(5));
const pe = util.promisify((cb) => cb(new Error('bad')));
await pe().catch((e) => console.log('rejected', e.message));
function custom() {}
custom[util.promisify.custom] = () => Promise.resolve('custom');
console.log(util.promisify(custom) === custom[util.promisify.custom], await util.promisify(custom)(), util.promisify.custom === Symbol.for('nodejs.util.promisify.custom'));
const cbf = util.callbackify(async (x) => x * 2);
console.log(cbf.name, cbf.length);
cbf(4, (err, v) => console.log('cb', err, v));
const cbr = util.callbackify(async () => { throw null; });
cbr((err) => console.log('cbr', err.code, err.message, err.reason));
for (const bad of [() => util.promisify(5), () => util.callbackify('x'), () => util.inherits(null, Object), () => util.stripVTControlCharacters(1)]) {
  try { bad(); } catch (e) { console.log(e.code, e.message); }
}
console.log(util.isArray([]), util.isDeepStrictEqual({ a: [1] }, { a: [1] }), util.TextEncoder === TextEncoder);
