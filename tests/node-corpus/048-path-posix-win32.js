// path.posix is path; path.win32 handles backslashes and drives.
const path = require('path');
console.log(path.posix === path, path.win32.sep, path.posix.sep);
console.log(path.win32.join('C:\\a', '..', 'b', 'c.txt'));
console.log(path.win32.basename('C:\\dir\\file.ext'), path.win32.isAbsolute('C:\\x'), path.win32.isAbsolute('x'));
console.log(JSON.stringify(path.win32.parse('C:\\dir\\file.ext')));
