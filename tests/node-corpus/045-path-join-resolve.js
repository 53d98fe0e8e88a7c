// path.join/normalize/resolve (resolve shown relative to the cwd).
const path = require('path');
console.log(path.join('/a/b', '../c', './d'), path.join('a', '', 'b/'), path.join(''));
console.log(path.normalize('/a//b/../c/.'), path.normalize('./x/../../y'));
console.log(path.relative(process.cwd(), path.resolve('x', '../y', 'z')));
console.log(path.resolve('/root', 'a', '/abs', 'b'));
console.log(path.isAbsolute('/x'), path.isAbsolute('x'), path.sep, path.delimiter);
