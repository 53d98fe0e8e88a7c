// AbortController/AbortSignal: abort event, reason, AbortSignal.abort, throwIfAborted.
const ac = new AbortController();
ac.signal.addEventListener('abort', () => console.log('abort event', ac.signal.aborted));
ac.signal.onabort = () => console.log('onabort');
console.log(ac.signal.aborted);
ac.abort(new Error('the reason'));
ac.abort();
console.log(ac.signal.reason.message);
const s = AbortSignal.abort();
console.log(s.aborted, s.reason.name, s.reason.code, s.reason.message);
try {
  s.throwIfAborted();
} catch (e) {
  console.log('thrown', e.name);
}
const t = AbortSignal.timeout(1);
t.addEventListener('abort', () => console.log('timeout signal', t.reason.name, t.reason.code));
setTimeout(() => {}, 20);
