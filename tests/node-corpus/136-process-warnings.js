// emitWarning writes to stderr and emits 'warning'; stdout is unaffected.
process.on('warning', (w) => console.log('warning event', w.name, w.message, w.code));
process.emitWarning('something odd', { code: 'CORPUS_W', type: 'CustomWarning' });
console.log('after emit');
