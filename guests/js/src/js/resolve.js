// Node's module resolution, shared by `require` (cjs.js) and `import` (the Rust
// resolver calls `esmResolve`): relative and absolute files with extension lookup,
// directories with package.json `main` or index files, package.json `exports` and
// `imports` with conditions and subpath patterns, package self-reference, and
// `node_modules` up the tree. The conditions are `require`/`import`, `node`, `default`.
'use strict';

const path = require('path');
const mod = native.module;

const CJS_CONDITIONS = ['require', 'node', 'node-addons'];
const ESM_CONDITIONS = ['import', 'node', 'node-addons'];
const EXTENSIONS = ['.js', '.json', '.node'];

// package.json files read this run, by directory: a run reads each once.
const packageCache = new Map();

function codedError(code, message, props) {
  const err = new Error(message);
  err.code = code;
  if (props) Object.assign(err, props);
  return err;
}

// The parsed package.json in `dir`, or null.
function readPackage(dir) {
  if (packageCache.has(dir)) return packageCache.get(dir);
  const file = path.join(dir, 'package.json');
  let pkg = null;
  if (mod.kind(file) === 'file') {
    const text = mod.readText(file);
    try {
      pkg = JSON.parse(text);
    } catch (e) {
      throw codedError('ERR_INVALID_PACKAGE_CONFIG', `Invalid package config ${file}.`, { path: file });
    }
    if (pkg === null || typeof pkg !== 'object') pkg = {};
    pkg.__path = file;
  }
  packageCache.set(dir, pkg);
  return pkg;
}

// The nearest package.json at or above `dir` (not crossing into node_modules' parent
// from inside a package), as { dir, pkg } or null.
function packageScope(dir) {
  let current = dir;
  for (;;) {
    if (path.basename(current) === 'node_modules') return null;
    const pkg = readPackage(current);
    if (pkg) return { dir: current, pkg };
    const parent = path.dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

function tryFile(file) {
  return mod.kind(file) === 'file' ? file : undefined;
}

function tryExtensions(base) {
  for (const ext of EXTENSIONS) {
    const found = tryFile(base + ext);
    if (found) return found;
  }
  return undefined;
}

// A directory as a CommonJS module: package.json `main`, then index.*.
function tryDirectory(dir) {
  const pkg = readPackage(dir);
  if (pkg && typeof pkg.main === 'string' && pkg.main) {
    const main = path.resolve(dir, pkg.main);
    const found = tryFile(main) || tryExtensions(main) || tryExtensions(path.join(main, 'index'));
    if (found) return found;
  }
  return tryExtensions(path.join(dir, 'index'));
}

// LOAD_AS_FILE then LOAD_AS_DIRECTORY.
function loadPath(base, trailingSlash) {
  if (!trailingSlash) {
    const found = tryFile(base) || tryExtensions(base);
    if (found) return found;
  }
  if (mod.kind(base) === 'directory') return tryDirectory(base);
  return undefined;
}

// ---- exports and imports maps ------------------------------------------------------

function invalidTarget(pkgPath, key, target) {
  return codedError('ERR_INVALID_PACKAGE_TARGET',
    `Invalid "exports" target ${JSON.stringify(target)} defined for '${key}' in the package config ${pkgPath}`);
}

function resolveTarget(pkgDir, pkgPath, key, target, match, conditions, isImports) {
  if (typeof target === 'string') {
    if (!target.startsWith('./')) {
      if (isImports && !target.startsWith('../') && !target.startsWith('/')) {
        return { bare: match === undefined ? target : target.split('*').join(match) };
      }
      throw invalidTarget(pkgPath, key, target);
    }
    const resolved = match === undefined ? target : target.split('*').join(match);
    return path.join(pkgDir, resolved);
  }
  if (Array.isArray(target)) {
    let lastError;
    for (const t of target) {
      try {
        const r = resolveTarget(pkgDir, pkgPath, key, t, match, conditions, isImports);
        if (r !== undefined && r !== null) return r;
      } catch (e) {
        if (e.code !== 'ERR_INVALID_PACKAGE_TARGET') throw e;
        lastError = e;
      }
    }
    if (lastError) throw lastError;
    return null;
  }
  if (target !== null && typeof target === 'object') {
    for (const cond of Object.keys(target)) {
      if (cond === 'default' || conditions.includes(cond)) {
        const r = resolveTarget(pkgDir, pkgPath, key, target[cond], match, conditions, isImports);
        if (r !== undefined) return r;
      }
    }
    return undefined;
  }
  return null;
}

// Node's PATTERN_KEY_COMPARE order: the longest prefix before '*' wins.
function patternCompare(a, b) {
  const ai = a.indexOf('*');
  const bi = b.indexOf('*');
  const abase = ai === -1 ? a.length : ai + 1;
  const bbase = bi === -1 ? b.length : bi + 1;
  if (abase > bbase) return -1;
  if (bbase > abase) return 1;
  if (ai === -1) return 1;
  if (bi === -1) return -1;
  if (a.length > b.length) return -1;
  if (b.length > a.length) return 1;
  return 0;
}

function resolveMap(pkgDir, pkgPath, map, subpath, conditions, isImports) {
  if (Object.prototype.hasOwnProperty.call(map, subpath) && !subpath.includes('*')) {
    return resolveTarget(pkgDir, pkgPath, subpath, map[subpath], undefined, conditions, isImports);
  }
  let bestKey = '';
  let bestMatch;
  for (const key of Object.keys(map)) {
    const star = key.indexOf('*');
    if (star === -1 || key.indexOf('*', star + 1) !== -1) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (subpath.startsWith(prefix) && subpath !== prefix &&
        (suffix === '' || (subpath.endsWith(suffix) && subpath.length >= key.length))) {
      if (patternCompare(bestKey, key) === 1) {
        bestKey = key;
        bestMatch = subpath.slice(prefix.length, subpath.length - suffix.length);
      }
    }
  }
  if (bestKey) return resolveTarget(pkgDir, pkgPath, bestKey, map[bestKey], bestMatch, conditions, isImports);
  return undefined;
}

function exportsMap(exports) {
  if (typeof exports === 'string' || Array.isArray(exports)) return { '.': exports };
  if (exports && typeof exports === 'object') {
    const keys = Object.keys(exports);
    if (keys.length && !keys[0].startsWith('.')) return { '.': exports };
  }
  return exports;
}

function resolveExports(pkgDir, pkg, subpath, conditions) {
  const map = exportsMap(pkg.exports);
  const r = map && typeof map === 'object' ? resolveMap(pkgDir, pkg.__path, map, subpath, conditions, false) : undefined;
  if (r === undefined || r === null) {
    const what = subpath === '.' ? 'No "exports" main defined' : `Package subpath '${subpath}' is not defined by "exports"`;
    throw codedError('ERR_PACKAGE_PATH_NOT_EXPORTED', `${what} in ${pkg.__path}`);
  }
  return r;
}

// ---- the entry points -----------------------------------------------------------

function isRelative(request) {
  return request === '.' || request === '..' || request.startsWith('./') || request.startsWith('../');
}

// `node_modules` directories to search from `dir`, nearest first.
function nodeModulePaths(dir) {
  const out = [];
  let current = path.resolve(dir);
  for (;;) {
    if (path.basename(current) !== 'node_modules') out.push(path.join(current, 'node_modules'));
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return out;
}

function splitPackageName(request) {
  let end = request.indexOf('/');
  if (request.startsWith('@')) end = end === -1 ? -1 : request.indexOf('/', end + 1);
  const name = end === -1 ? request : request.slice(0, end);
  return { name, subpath: end === -1 ? '.' : '.' + request.slice(end) };
}

// A file once `exports` or `imports` named it: it must exist (no extension lookup).
function mustExist(file) {
  return tryFile(file);
}

// Resolve `request` from directory `dir`. `esm`: use `import` conditions and ESM's
// rules. `paths`: where to look for bare names (CommonJS `require.resolve` option).
// Returns an absolute file path, `{ builtin }`, or undefined when nothing matched.
function resolve(request, dir, esm, paths) {
  const conditions = esm ? ESM_CONDITIONS : CJS_CONDITIONS;
  if (request.startsWith('#')) return resolveImports(request, dir, conditions, esm);
  if (path.isAbsolute(request) || isRelative(request)) {
    const base = path.resolve(dir, request);
    return loadPath(base, request.endsWith('/'));
  }
  const { name, subpath } = splitPackageName(request);
  const scope = packageScope(dir);
  if (scope && scope.pkg.name === name && scope.pkg.exports !== undefined) {
    return mustExist(resolveExports(scope.dir, scope.pkg, subpath, conditions));
  }
  for (const nm of paths || nodeModulePaths(dir)) {
    const pkgDir = path.join(nm, name);
    const pkg = mod.kind(pkgDir) === 'directory' ? readPackage(pkgDir) : null;
    if (pkg && pkg.exports !== undefined && pkg.exports !== null) {
      return mustExist(resolveExports(pkgDir, pkg, subpath, conditions));
    }
    const found = loadPath(path.join(nm, request), request.endsWith('/'));
    if (found) return found;
  }
  return undefined;
}

function resolveImports(request, dir, conditions, esm) {
  const scope = packageScope(dir);
  if (!scope || !scope.pkg.imports || request === '#' || request.startsWith('#/')) {
    throw codedError('ERR_PACKAGE_IMPORT_NOT_DEFINED',
      `Package import specifier "${request}" is not defined${scope ? ` in package ${scope.pkg.__path}` : ''}`);
  }
  const r = resolveMap(scope.dir, scope.pkg.__path, scope.pkg.imports, request, conditions, true);
  if (r === undefined || r === null) {
    throw codedError('ERR_PACKAGE_IMPORT_NOT_DEFINED',
      `Package import specifier "${request}" is not defined in package ${scope.pkg.__path}`);
  }
  if (typeof r === 'object') return resolve(r.bare, dir, esm);
  return mustExist(r);
}

// What kind of module a file is: 'module', 'commonjs' or 'json'. `.js` follows the
// nearest package.json's "type"; `detect` (the js backend) also takes a `.js` file
// outside any package, or with import/export syntax, as a module, as Node 22 does.
function format(file, detect) {
  if (file.endsWith('.mjs')) return 'module';
  if (file.endsWith('.cjs')) return 'commonjs';
  if (file.endsWith('.json')) return 'json';
  const scope = packageScope(path.dirname(file));
  if (scope && scope.pkg.type === 'module') return 'module';
  if (!detect) return 'commonjs';
  if (!scope) return 'module';
  return /(^|[\n;])\s*(import\s*[\w{*'"]|export\s+(\{|\*|default|const|let|var|function|class|async))/.test(mod.readText(file))
    ? 'module'
    : 'commonjs';
}

module.exports = {
  resolve,
  format,
  nodeModulePaths,
  packageScope,
  readPackage,
  codedError,
  isRelative,
};
