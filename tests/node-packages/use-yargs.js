// yargs (CommonJS build): options, positional commands, parsing without exiting.
const yargs = require('yargs/yargs');
const out = yargs(['serve', 'site', '--port', '8080', '-v', '--tags', 'a', 'b'])
  .scriptName('tool')
  .command('serve <dir>', 'serve a directory', (y) => y.positional('dir', { type: 'string' }))
  .option('port', { type: 'number', default: 3000 })
  .option('verbose', { alias: 'v', type: 'boolean' })
  .option('tags', { type: 'array' })
  .strict()
  .exitProcess(false)
  .parseSync();
console.log(out._.join(','), out.dir, out.port, out.verbose, JSON.stringify(out.tags));
yargs(['--bogus']).option('x', {}).strict().exitProcess(false).fail((msg) => console.log('fail:', msg)).parse();
const help = yargs([]).scriptName('tool').usage('$0 [options]').option('n', { describe: 'a number', type: 'number' }).version(false).exitProcess(false);
help.showHelp((s) => console.log(s));
