import path from 'node:path';
const w = path.win32;
const cases = [['C:\\a', '..', 'b', 'c.txt'], ['a/b', '../c'], ['\\\\server\\share\\x', 'y'], ['C:', 'x'], ['', ''], ['C:\\', '..']];
for (const c of cases) console.log(JSON.stringify(w.join(...c)));
for (const p of ['C:\\dir\\file.ext', 'file.txt', '.\\x.js', '\\\\srv\\sh\\a\\b.tar.gz', 'C:', 'C:\\', 'dir\\', '..', '.bashrc', 'a.', 'C:foo.txt', '/x/y'])
  console.log(JSON.stringify([w.normalize(p), w.isAbsolute(p), w.dirname(p), w.basename(p), w.extname(p), w.parse(p)]));
console.log(w.format({ root: 'C:\\', dir: 'C:\\path\\dir', base: 'file.txt' }), w.format({ root: 'C:\\', name: 'f', ext: 'txt' }));
console.log(w.relative('C:\\orandea\\test\\aaa', 'C:\\orandea\\impl\\bbb'), w.resolve('C:\\a', 'b\\c', '..\\d'), w.resolve('D:\\x', 'C:\\y', 'z'));
console.log(w.toNamespacedPath('C:\\x\\y'), w.basename('C:\\a\\b.txt', '.txt'), w.sep, w.delimiter, w.posix === path.posix);
