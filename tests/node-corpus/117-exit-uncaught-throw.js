// An uncaught throw: stdout so far is kept, the stack goes to stderr, exit 1.
console.log('before the throw');
function deep() { throw new Error('uncaught on purpose'); }
deep();
console.log('never printed');
