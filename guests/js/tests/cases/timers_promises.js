import tp from 'node:timers/promises';
import timers from 'node:timers';
import { setTimeout as sleep } from 'timers/promises';
console.log(Object.keys(tp), timers.promises === tp, sleep === tp.setTimeout, timers.setTimeout === globalThis.setTimeout);
console.log(await tp.setTimeout(5, 'v'), await tp.setImmediate('i'), await sleep(1));
let n = 0;
for await (const v of tp.setInterval(2, 'tick')) { console.log(v, ++n); if (n === 3) break; }
const ac = new AbortController();
const p = tp.setTimeout(1000, 'x', { signal: ac.signal });
ac.abort();
try { await p } catch (e) { console.log(e.name, e.code, e.message, e.cause.name) }
try { await tp.setTimeout(1, 'x', { signal: AbortSignal.abort('r') }) } catch (e) { console.log(e.name, e.code, e.message, e.cause) }
const ac2 = new AbortController();
setTimeout(() => ac2.abort('stop'), 10);
try { for await (const v of tp.setInterval(3, 1, { signal: ac2.signal })) n += v; } catch (e) { console.log('interval', e.code, e.cause, n > 3) }
await tp.scheduler.wait(3); console.log('waited');
