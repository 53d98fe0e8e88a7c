// CommonJS as Node runs it: `Module`, `require` with Node's resolution (resolve.js),
// `module.exports`/`exports`, `__filename`/`__dirname`, `require.resolve`,
// `require.cache`, JSON modules, and cycles (a module required while it loads gives
// its exports so far). Also what ES modules need of it: the exports of a CommonJS
// file (`requireFromEsm`) and the names it exports (`exportNames`, a lexer as Node's
// cjs-module-lexer finds them), and `createRequire`.
'use strict';

const path = require('path');
const resolver = require('resolve');
const internalRequire = require;
const mod = native.module;

const builtinNames = mod.builtinNames();
// Modules Node has only under the `node:` scheme.
const SCHEME_ONLY = new Set(['test', 'test/reporters', 'sea', 'sqlite']);

function builtinOf(request) {
  if (request.startsWith('node:')) {
    const target = mod.builtin(request);
    if (target !== undefined) return target;
    throw resolver.codedError('ERR_UNKNOWN_BUILTIN_MODULE', `No such built-in module: ${request}`);
  }
  if (SCHEME_ONLY.has(request)) return undefined;
  return mod.builtin(request);
}

class Module {
  constructor(id = '', parent) {
    this.id = id;
    this.path = path.dirname(id);
    this.exports = {};
    this.filename = null;
    this.loaded = false;
    this.children = [];
    this.paths = [];
    Object.defineProperty(this, 'parent', { value: parent, writable: true, enumerable: false, configurable: true });
    if (parent && parent.children) parent.children.push(this);
  }

  require(id) {
    if (typeof id !== 'string') {
      const err = new TypeError(`The "id" argument must be of type string. Received ${id === null ? 'null' : typeof id}`);
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    if (id === '') {
      const err = new TypeError("The argument 'id' must be a non-empty string. Received ''");
      err.code = 'ERR_INVALID_ARG_VALUE';
      throw err;
    }
    return Module._load(id, this, false);
  }

  load(filename) {
    this.filename = filename;
    this.paths = resolver.nodeModulePaths(path.dirname(filename));
    let ext = path.extname(filename);
    if ((ext === '.js' || ext === '.mjs') && resolver.format(filename, false) === 'module') {
      this.exports = esmExports(mod.importSync(filename));
      this.loaded = true;
      return;
    }
    if (!Module._extensions[ext]) ext = '.js';
    Module._extensions[ext](this, filename);
    this.loaded = true;
  }

  _compile(content, filename) {
    if (content.startsWith('#!')) content = '//' + content.slice(2);
    // The wrapper shares line 1 with the module, so lines match the file (columns on
    // line 1 are shifted by the wrapper's length).
    const fn = mod.compile(Module.wrap(content), filename);
    const dirname = path.dirname(filename);
    const require = makeRequire(this);
    return fn.call(this.exports, this.exports, require, this, filename, dirname);
  }
}

Module.wrapper = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'];
Module.wrap = (script) => Module.wrapper[0] + script + Module.wrapper[1];
Module._cache = Object.create(null);
Module._pathCache = Object.create(null);
Module.builtinModules = builtinNames.slice();
Module.isBuiltin = (name) => {
  try {
    return builtinOf(String(name)) !== undefined;
  } catch {
    return false;
  }
};
Module._nodeModulePaths = resolver.nodeModulePaths;
Module.globalPaths = [];
Module.Module = Module;

Module._extensions = Object.create(null);
Module._extensions['.js'] = (module, filename) => {
  module._compile(mod.readText(filename), filename);
};
Module._extensions['.json'] = (module, filename) => {
  const content = mod.readText(filename);
  try {
    module.exports = JSON.parse(content);
  } catch (err) {
    err.message = filename + ': ' + err.message;
    throw err;
  }
};
Module._extensions['.node'] = (module, filename) => {
  throw resolver.codedError('ERR_NOT_SUPPORTED_IN_SANDBOX',
    `Cannot load native addon ${filename}: native (.node) addons cannot run in the WebAssembly sandbox`);
};

// What require() of an ES module gives (Node 20.19+): its namespace (or its export
// named "module.exports"), marked `__esModule` when it has a default export so that
// transpiled code reads `default`.
function esmExports(namespace) {
  // A module may say what require() gives with an export named "module.exports".
  if ('module.exports' in namespace) return namespace['module.exports'];
  if (!('default' in namespace)) return namespace;
  const out = Object.create(null);
  Object.defineProperty(out, '__esModule', { value: true, enumerable: true });
  for (const key of Object.keys(namespace)) {
    Object.defineProperty(out, key, { get: () => namespace[key], enumerable: true });
  }
  return out;
}

function requireStack(parent) {
  const stack = [];
  for (let m = parent; m; m = m.parent) if (m.filename || m.id) stack.push(m.filename || m.id);
  return stack;
}

Module._resolveFilename = function (request, parent, isMain, options) {
  if (builtinOf(request) !== undefined) return request;
  const dir = parent && parent.filename ? path.dirname(parent.filename)
    : parent && parent.id && parent.id !== '.' ? parent.path || process.cwd() : process.cwd();
  let found;
  if (options && Array.isArray(options.paths)) {
    for (const p of options.paths) {
      const base = path.resolve(p);
      found = resolver.isRelative(request) || path.isAbsolute(request)
        ? resolver.resolve(request, base, false)
        : resolver.resolve(request, base, false, resolver.nodeModulePaths(base));
      if (found) break;
    }
  } else {
    found = resolver.resolve(request, dir, false);
  }
  if (found) return realpath(found);
  const stack = requireStack(parent);
  let message = `Cannot find module '${request}'`;
  if (stack.length) message += '\nRequire stack:\n- ' + stack.join('\n- ');
  const err = new Error(message);
  err.code = 'MODULE_NOT_FOUND';
  err.requireStack = stack;
  throw err;
};

function realpath(file) {
  try {
    return native.fs.realpath(file);
  } catch {
    return file;
  }
}

Module._load = function (request, parent, isMain) {
  const builtin = builtinOf(request);
  if (builtin !== undefined) return internalRequire(builtin);
  const filename = Module._resolveFilename(request, parent, isMain);
  const cached = Module._cache[filename];
  if (cached !== undefined) {
    if (parent && parent.children && !parent.children.includes(cached)) parent.children.push(cached);
    return cached.exports;
  }
  const module = new Module(filename, parent);
  if (isMain) {
    module.id = '.';
    process.mainModule = module;
  }
  Module._cache[filename] = module;
  let threw = true;
  try {
    module.load(filename);
    threw = false;
  } finally {
    if (threw) {
      delete Module._cache[filename];
      if (parent && parent.children) {
        const i = parent.children.indexOf(module);
        if (i !== -1) parent.children.splice(i, 1);
      }
    }
  }
  return module.exports;
};

function makeRequire(module) {
  const require = function require(id) {
    return module.require(id);
  };
  require.resolve = function resolve(request, options) {
    return Module._resolveFilename(String(request), module, false, options);
  };
  require.resolve.paths = (request) => {
    if (builtinOf(request) !== undefined) return null;
    if (resolver.isRelative(request)) return [module.filename ? path.dirname(module.filename) : process.cwd()];
    return resolver.nodeModulePaths(module.filename ? path.dirname(module.filename) : process.cwd());
  };
  Object.defineProperty(require, 'main', { get: () => process.mainModule, enumerable: true, configurable: true });
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

Module.createRequire = function createRequire(filename) {
  let file = filename;
  if (typeof file === 'object' && file !== null && typeof file.href === 'string') file = file.href;
  if (typeof file !== 'string') {
    const err = new TypeError(`The argument 'filename' must be a file URL object, file URL string, or absolute path string. Received ${String(filename)}`);
    err.code = 'ERR_INVALID_ARG_VALUE';
    throw err;
  }
  if (file.startsWith('file://')) file = decodeURIComponent(file.slice(7));
  const m = new Module(file, null);
  m.filename = file.endsWith('/') ? path.join(file, 'noop.js') : file;
  m.paths = resolver.nodeModulePaths(path.dirname(m.filename));
  return makeRequire(m);
};

// The main program as a CommonJS module.
Module.runMain = function (filename) {
  Module._load(filename, null, true);
};

// Code given with -e/-p or on stdin: a script in the global scope, with `require`,
// `module`, `exports`, `__filename` and `__dirname` as globals, as Node's [eval].
Module.evalScript = function (name, source) {
  const m = new Module(name, null);
  m.filename = path.join(process.cwd(), name);
  m.paths = resolver.nodeModulePaths(process.cwd());
  const g = globalThis;
  g.module = m;
  g.exports = m.exports;
  g.require = makeRequire(m);
  g.__filename = name;
  g.__dirname = '.';
  return mod.compile(source, name);
};

// ---- CommonJS seen from ES modules ------------------------------------------------

Module.requireFromEsm = (filename) => {
  const cached = Module._cache[filename];
  if (cached !== undefined) return cached.exports;
  const module = new Module(filename, null);
  Module._cache[filename] = module;
  let threw = true;
  try {
    module.filename = filename;
    module.paths = resolver.nodeModulePaths(path.dirname(filename));
    const ext = path.extname(filename);
    (Module._extensions[ext] && ext !== '.mjs' ? Module._extensions[ext] : Module._extensions['.js'])(module, filename);
    module.loaded = true;
    threw = false;
  } finally {
    if (threw) delete Module._cache[filename];
  }
  return module.exports;
};

Module.exportNames = (filename) => require('cjs_lexer').exportNames(filename);

module.exports = Module;
