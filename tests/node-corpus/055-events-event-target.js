// EventTarget and Event, the web-style API.
const t = new EventTarget();
t.addEventListener('ping', (ev) => console.log('got', ev.type, ev instanceof Event));
t.addEventListener('ping', () => console.log('once'), { once: true });
t.dispatchEvent(new Event('ping'));
t.dispatchEvent(new Event('ping'));
const ce = new CustomEvent('c', { detail: { n: 1 } });
t.addEventListener('c', (ev) => console.log('detail', ev.detail.n));
t.dispatchEvent(ce);
