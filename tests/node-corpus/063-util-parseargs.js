// util.parseArgs: options, short flags, multiple, positionals, errors.
const { parseArgs } = require('util');
const options = {
  verbose: { type: 'boolean', short: 'v' },
  name: { type: 'string', short: 'n', default: 'anon' },
  tag: { type: 'string', multiple: true },
};
const r = parseArgs({ args: ['-v', '--name=x', '--tag', 'a', '--tag=b', 'file1', '--', '--notflag'], options, allowPositionals: true });
console.log(JSON.stringify(r.values), JSON.stringify(r.positionals));
const d = parseArgs({ args: [], options });
console.log(JSON.stringify(d.values));
for (const args of [['--bogus'], ['pos'], ['--name']]) {
  try {
    parseArgs({ args, options });
  } catch (e) {
    console.log(e.code, e.message);
  }
}
const t = parseArgs({ args: ['-vn', 'z'], options, tokens: true });
console.log(t.tokens.map((k) => k.kind + ':' + (k.name || k.value)).join(' '));
