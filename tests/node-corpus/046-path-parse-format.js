// path.parse/format/basename/dirname/extname on edge cases.
const path = require('path');
for (const p of ['/home/u/file.tar.gz', 'rel/dir/', '.bashrc', '/', 'a.b.', '']) {
  console.log(JSON.stringify(p), JSON.stringify(path.parse(p)));
}
console.log(path.format({ dir: '/x/y', name: 'f', ext: '.txt' }), path.format({ root: '/', base: 'b' }));
console.log(path.basename('/a/b.js', '.js'), path.dirname('/a/b/c'), path.dirname('a'), path.extname('x.'));
