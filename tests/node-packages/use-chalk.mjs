// chalk 5 (ESM): a fixed color level, so the escapes are the same everywhere.
import chalk, { Chalk } from 'chalk';
const c = new Chalk({ level: 1 });
console.log(JSON.stringify(c.red('red')), JSON.stringify(c.bold.underline('bu')), JSON.stringify(c.bgBlue.white('on blue')));
console.log(JSON.stringify(c.green(`nested ${c.yellow('inner')} outer`)));
const c3 = new Chalk({ level: 3 });
console.log(JSON.stringify(c3.hex('#ff8800')('hex')), JSON.stringify(c3.rgb(1, 2, 3).bold('rgb')));
console.log(JSON.stringify(new Chalk({ level: 0 }).red('plain')), c.level, typeof chalk.level);
