// node:test's mock: mock.fn (calls, arguments, results, errors, this),
// implementations (replaced, once), mock.method and restore, t.mock reset per test.
import { mock, test } from 'node:test';
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
const f = mock.fn((a, b) => a + b);
console.log(f(1, 2), f.mock.callCount(), f.mock.calls[0].arguments, f.mock.calls[0].result, Object.keys(f.mock.calls[0]));
const g = mock.fn();
console.log(g(5), g.mock.calls[0].arguments, g.mock.calls[0].result, g.mock.calls[0].this);
const obj = { m(x) { return x * 2; } };
const s = mock.method(obj, 'm', (x) => x * 3);
console.log(obj.m(2), s.mock.calls.length, s.mock.calls[0].this === obj);
s.mock.restore();
console.log(obj.m(2));
const h = mock.fn(() => 1, () => 2);
console.log(h());
h.mock.mockImplementation(() => 3);
console.log(h());
h.mock.mockImplementationOnce(() => 4);
console.log(h(), h());
h.mock.resetCalls();
console.log(h.mock.callCount());
const thrower = mock.fn(() => { throw new Error('boom'); });
try { thrower(); } catch {}
console.log(thrower.mock.calls[0].error.message, thrower.mock.calls[0].result);
const times = mock.fn(() => 'orig', () => 'mocked', { times: 2 });
console.log(times(), times(), times());
const o2 = { get() { return 1; } };
test('t.mock', (t) => {
  const spy = t.mock.method(o2, 'get', () => 42);
  console.log('in test', o2.get(), spy.mock.callCount());
});
test('after t.mock', () => console.log('restored', o2.get()));
test('missing method', (t) => { t.mock.method(o2, 'nope'); });
