// commander: options, arguments, subcommands; parsing fixed argv without exiting.
const { Command } = require('commander');
const program = new Command();
program.name('tool').version('1.0.0').option('-d, --debug', 'debug output').option('-p, --pizza-type <type>', 'flavour', 'plain');
program
  .command('clone <source> [destination]')
  .option('--depth <n>', 'depth', parseInt)
  .action((source, destination, opts) => console.log('clone', source, destination, JSON.stringify(opts)));
program.exitOverride();
program.configureOutput({ writeOut: (s) => process.stdout.write('[out] ' + s), writeErr: (s) => process.stdout.write('[err] ' + s) });
program.parse(['node', 'tool', '-d', '--pizza-type', 'hawaiian', 'clone', 'repo', '--depth', '3'], { from: 'node' });
console.log(JSON.stringify(program.opts()));
try {
  program.parse(['node', 'tool', '--nope'], { from: 'node' });
} catch (e) {
  console.log('error', e.code, e.exitCode);
}
console.log(program.helpInformation());
