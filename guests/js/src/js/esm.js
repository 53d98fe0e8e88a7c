// What the Rust module loader asks of JavaScript for `import`: Node's ESM resolution of
// bare specifiers (`node_modules`, package.json `exports` with the `import` condition,
// `imports`), the format of a file, the facade that makes a CommonJS file an ES module
// (its `module.exports` as the default export, the names cjs_lexer finds as named
// exports, evaluated when the facade is, so side effects keep their order), and
// `import.meta`.
'use strict';

const path = require('path');
const resolver = require('resolve');

function notFound(specifier, base) {
  const from = base.startsWith('/') ? base : process.cwd();
  const err = new Error(`Cannot find package '${specifier}' imported from ${from}`);
  err.code = 'ERR_MODULE_NOT_FOUND';
  return err;
}

// A bare or `#` specifier imported from `base` (a file path, or a built-in's name).
function resolve(specifier, base) {
  const dir = base.startsWith('/') ? path.dirname(base) : process.cwd();
  const found = resolver.resolve(specifier, dir, true);
  if (found === undefined) throw notFound(specifier, base);
  return native.fs.realpath(found);
}

function format(file) {
  return resolver.format(file, !native.nodeMode);
}

const IDENT = /^[A-Za-z_$][\w$]*$/;
const RESERVED = new Set(('break case catch class const continue debugger default delete do else enum export extends ' +
  'false finally for function if import in instanceof new null return super switch this throw true try typeof var ' +
  'void while with yield let static implements interface package private protected public await').split(' '));

function cjsFacade(file) {
  const names = require('cjs_lexer').exportNames(file);
  let src = `const __m = globalThis[Symbol.for('computer.internal')].require('cjs').requireFromEsm(${JSON.stringify(file)});\n` +
    'export default __m;\n';
  names.forEach((name, i) => {
    src += `const __e${i} = __m == null ? undefined : __m[${JSON.stringify(name)}];\n`;
    src += IDENT.test(name) && !RESERVED.has(name)
      ? `export { __e${i} as ${name} };\n`
      : `export { __e${i} as ${JSON.stringify(name)} };\n`;
  });
  return src;
}

function fileUrl(file) {
  return 'file://' + encodeURI(file).replace(/[?#]/g, encodeURIComponent);
}

function fillMeta(meta, file) {
  meta.url = fileUrl(file);
  meta.filename = file;
  meta.dirname = path.dirname(file);
  meta.resolve = (specifier) => {
    if (resolver.isRelative(specifier) || specifier.startsWith('/')) return fileUrl(path.resolve(path.dirname(file), specifier));
    if (native.module.builtin(specifier) !== undefined) return specifier.startsWith('node:') ? specifier : 'node:' + specifier;
    return fileUrl(resolve(specifier, file));
  };
}

module.exports = { resolve, format, cjsFacade, fillMeta, fileUrl };
