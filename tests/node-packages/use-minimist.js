// minimist: flags, aliases, booleans, defaults, '--'.
const minimist = require('minimist');
const argv = ['-x', '3', '-yz', '--name=ada', '--no-color', 'file.txt', '--num', '4.5', '--', '--raw'];
console.log(JSON.stringify(minimist(argv)));
console.log(JSON.stringify(minimist(argv, { '--': true, boolean: ['y'], alias: { n: 'name' } })));
console.log(JSON.stringify(minimist(['--a', '--b', 'x'], { string: ['b'], default: { c: 'dflt' } })));
console.log(JSON.stringify(minimist(['--x.y', '1', '-abc'], { stopEarly: true })));
