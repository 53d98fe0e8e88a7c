// mkdirSync recursive returns the first directory made; rmSync recursive.
const fs = require('fs');
const path = require('path');
fs.rmSync('scratch-033', { recursive: true, force: true });
const first = fs.mkdirSync('scratch-033/a/b/c', { recursive: true });
console.log(path.relative(process.cwd(), first));
console.log(fs.mkdirSync('scratch-033/a/b', { recursive: true }));
fs.writeFileSync('scratch-033/a/b/c/f.txt', 'x');
console.log(fs.readdirSync('scratch-033', { recursive: true }).sort().join(' '));
fs.rmSync('scratch-033', { recursive: true });
console.log(fs.existsSync('scratch-033'));
