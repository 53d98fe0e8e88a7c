// The globals a Node script expects, by type.
const names = ['globalThis', 'global', 'process', 'Buffer', 'console', 'setTimeout', 'setImmediate', 'queueMicrotask',
  'structuredClone', 'URL', 'URLSearchParams', 'TextEncoder', 'TextDecoder', 'AbortController', 'EventTarget',
  'atob', 'btoa', 'fetch', 'performance', 'crypto', 'require', 'module', 'WebAssembly', 'BroadcastChannel'];
for (const n of names) console.log(n, typeof globalThis[n] !== 'undefined' ? typeof globalThis[n] : typeof eval(n));
console.log(global === globalThis, atob(btoa('round trip')));
console.log(JSON.stringify(structuredClone({ d: new Date(0), m: new Map([[1, 2]]) }, undefined)), structuredClone(new Map([[1, 2]])).get(1));
