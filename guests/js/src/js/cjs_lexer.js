// The named exports an ES module sees in a CommonJS file, found without running it,
// as Node's cjs-module-lexer finds them: `exports.x =`, `module.exports.x =`,
// `Object.defineProperty(exports, 'x', ...)`, `module.exports = { a, b: c, 'd': e }`,
// and re-exports (`module.exports = require('./y')`, TypeScript's
// `__exportStar(require('./y'), exports)`), whose names are found the same way.
// Names that the module only makes at run time are not found, as in Node; the default
// export is always the whole `module.exports`.
'use strict';

const path = require('path');
const resolver = require('resolve');
const mod = native.module;

// Comments and string/template contents would give false matches; blank them out
// but keep quotes so `exports['x']` still reads.
function stripComments(src) {
  return src
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/(^|[^:\\'"`])\/\/[^\n]*/g, '$1');
}

const IDENT = '[A-Za-z_$][\\w$]*';
const PATTERNS = [
  new RegExp(`(?:^|[^.\\w$])(?:module\\.)?exports\\.(${IDENT})\\s*=[^=]`, 'g'),
  new RegExp(`(?:^|[^.\\w$])(?:module\\.)?exports\\[\\s*(['"])([^'"]+)\\1\\s*\\]\\s*=[^=]`, 'g'),
  new RegExp(`Object\\.defineProperty\\(\\s*(?:module\\.)?exports\\s*,\\s*(['"])([^'"]+)\\1`, 'g'),
];
const REEXPORT = /(?:^|[^.\w$])module\.exports\s*=\s*require\(\s*(['"])([^'"]+)\1\s*\)/g;
const STAR = /__exportStar\(\s*require\(\s*(['"])([^'"]+)\1\s*\)|__export\(\s*require\(\s*(['"])([^'"]+)\3\s*\)\s*\)/g;
const LITERAL = /(?:^|[^.\w$])module\.exports\s*=\s*\{/g;

// The keys of the object literal that starts at `src[start]` (just after `{`), read as
// cjs-module-lexer reads them: `a` (shorthand), `a: b` and `'a': b` with an identifier
// value, `...require('x')`; the first other entry ends the list.
function literalKeys(src, start, reexports) {
  const keys = [];
  const entry = new RegExp(`\\s*(?:(${IDENT})|(['"])([^'"]+)\\2)\\s*(?::\\s*${IDENT}\\s*)?([,}])`, 'y');
  const spread = /\s*\.\.\.\s*require\(\s*(['"])([^'"]+)\1\s*\)\s*([,}])/y;
  let i = start;
  for (;;) {
    spread.lastIndex = i;
    let m = spread.exec(src);
    if (m) {
      reexports.push(m[2]);
    } else {
      entry.lastIndex = i;
      m = entry.exec(src);
      if (!m) break;
      keys.push(m[1] || m[3]);
    }
    i = spread.lastIndex || entry.lastIndex;
    if (m[m.length - 1] === '}') break;
  }
  return keys;
}

function scan(src) {
  const names = new Set();
  const reexports = [];
  src = stripComments(src);
  for (const re of PATTERNS) {
    re.lastIndex = 0;
    for (let m; (m = re.exec(src));) names.add(m[2] !== undefined ? m[2] : m[1]);
  }
  for (const re of [REEXPORT, STAR]) {
    re.lastIndex = 0;
    for (let m; (m = re.exec(src));) reexports.push(m[2] || m[4]);
  }
  LITERAL.lastIndex = 0;
  for (let m; (m = LITERAL.exec(src));) {
    for (const key of literalKeys(src, m.index + m[0].length, reexports)) names.add(key);
  }
  return { names, reexports };
}

function exportNames(filename, seen = new Set()) {
  if (seen.has(filename) || !filename.endsWith('.js') && !filename.endsWith('.cjs')) return [];
  seen.add(filename);
  let src;
  try {
    src = mod.readText(filename);
  } catch {
    return [];
  }
  const { names, reexports } = scan(src);
  for (const request of reexports) {
    let target;
    try {
      target = resolver.resolve(request, path.dirname(filename), false);
    } catch {
      target = undefined;
    }
    if (target && resolver.format(target, false) === 'commonjs') {
      for (const n of exportNames(target, seen)) names.add(n);
    }
  }
  names.delete('default');
  return [...names];
}

module.exports = { exportNames, scan };
