// console.error and process.stderr go to stderr; stdout only has console.log lines.
console.log('to stdout');
console.error('to stderr');
console.warn('warn to stderr');
process.stderr.write('raw stderr\n');
process.stdout.write('raw stdout\n');
console.info('info to stdout');
console.debug('debug to stdout');
