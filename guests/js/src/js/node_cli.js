// `node ARGS` as Node 20's command line reads them: options, then the script and its
// arguments. `main` runs a CommonJS program itself and tells Rust what else to do:
// `{ esm: file }` (evaluate that ES module), `{ esmSource, name }` (-e with
// --input-type=module), `{ exit: code }` (already answered: --version, a bad option),
// or `{}` (done; the event loop goes on).
'use strict';

const path = require('path');

const VERSION = process.version;
const EXEC_PATH = '/usr/bin/node';

// Options taking a value, as `--opt value` or `--opt=value`.
const WITH_VALUE = new Set([
  '-e', '--eval', '-p', '--print', '-r', '--require', '--import', '--input-type',
  '--env-file', '--stack-size', '--max-old-space-size', '--unhandled-rejections',
  '--test-reporter', '--test-reporter-destination', '--test-name-pattern',
  '--test-concurrency', '--conditions', '-C', '--title', '--loader',
  '--experimental-loader', '--stack-trace-limit', '--test-timeout', '--disable-warning',
]);
// Flags accepted and ignored: they change diagnostics or V8 tuning, not results.
const IGNORED = /^--(no-warnings|no-deprecation|trace-[\w-]+|enable-source-maps|experimental-[\w-]+|no-experimental-[\w-]+|max-old-space-size|max-semi-space-size|stack-size|stack-trace-limit|preserve-symlinks(-main)?|throw-deprecation|pending-deprecation|use-strict|expose-gc|harmony[\w-]*|abort-on-uncaught-exception|inspect[\w-]*|title|unhandled-rejections|frozen-intrinsics|no-addons|conditions|loader|disable-warning|test-only|test-reporter[\w-]*|test-name-pattern|test-concurrency|test-timeout|watch[\w-]*)$/;

const HELP = `Usage: node [options] [ script.js ] [arguments]
       node --test [options] [files or patterns]

Options:
  -                           script read from stdin (default if no file name is provided)
  --                          indicate the end of node options
  -c, --check                 syntax check script without executing
  -e, --eval=...              evaluate script
  -h, --help                  print node command line options
  -i, --interactive           (not available here: there is no terminal)
  --import=module             ES module to preload
  --input-type=...            set module type for string input (commonjs or module)
  -p, --print [...]           evaluate script and print result
  -r, --require=...           CommonJS module to preload
  --test                      launch test runner on startup
  -v, --version               print Node.js version

This node runs on QuickJS in the workspace's WebAssembly sandbox.
`;

function usageError(message) {
  native.write(2, `${EXEC_PATH}: ${message}\n`);
  return { exit: 9 };
}

function parse(argv) {
  const o = { eval: undefined, print: false, check: false, preload: [], imports: [], inputType: undefined, test: false, rest: [] };
  let i = 0;
  for (; i < argv.length; i++) {
    let arg = argv[i];
    if (arg === '--') { i++; break; }
    if (arg === '-' || !arg.startsWith('-')) break;
    let value;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq !== -1) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    // Short flags may be joined: -pe CODE.
    if (/^-[pe]{2}$/.test(arg)) arg = '-p';
    const takes = WITH_VALUE.has(arg);
    if (takes && value === undefined) {
      if (arg === '-p' || arg === '--print') {
        // -p may stand alone before a script read from stdin.
        if (i + 1 < argv.length) value = argv[++i];
      } else if (i + 1 < argv.length) {
        value = argv[++i];
      } else {
        return { error: `${arg} requires an argument` };
      }
    }
    switch (arg) {
      case '-v': case '--version': return { version: true };
      case '-h': case '--help': return { help: true };
      case '-e': case '--eval': o.eval = value; break;
      case '-p': case '--print': o.print = true; o.eval = value; break;
      case '-c': case '--check': o.check = true; break;
      case '-r': case '--require': o.preload.push(value); break;
      case '--import': o.imports.push(value); break;
      case '--input-type':
        if (value !== 'module' && value !== 'commonjs') return { error: `--input-type must be "module" or "commonjs"` };
        o.inputType = value;
        break;
      case '--env-file': o.envFile = value; break;
      case '--test': o.test = true; break;
      case '-i': case '--interactive': return { error: 'the REPL needs a terminal, which runs here do not have' };
      default:
        if (!IGNORED.test(arg)) return { error: `bad option: ${argv[i]}` };
    }
  }
  o.rest = argv.slice(i);
  return o;
}

function loadEnvFile(file) {
  const text = native.module.readText(path.resolve(file));
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*)?\s*$/.exec(line);
    if (!m || line.trim().startsWith('#')) continue;
    let v = (m[2] || '').trim();
    if (/^(['"`]).*\1$/.test(v)) v = v.slice(1, -1).replace(/\\n/g, '\n');
    else v = v.replace(/\s+#.*$/, '');
    if (!(m[1] in process.env)) process.env[m[1]] = v;
  }
}

function setProcess(args) {
  process.title = 'node';
  process.argv0 = 'node';
  process.execPath = EXEC_PATH;
  process.argv = [EXEC_PATH, ...args];
}

// Runs the command line. Returns `{ exit }` when it has answered already, a promise
// for Rust to wait on (an ES module's evaluation, the test runner), or undefined.
function main(argv) {
  const o = parse(argv.slice(1));
  if (o.error) return usageError(o.error);
  if (o.version) {
    native.write(1, VERSION + '\n');
    return { exit: 0 };
  }
  if (o.help) {
    native.write(1, HELP);
    return { exit: 0 };
  }
  if (o.envFile !== undefined) loadEnvFile(o.envFile);
  const Module = require('cjs');
  if (o.test) {
    setProcess(o.rest);
    return { exit: require('test').runCli(o.rest) };
  }
  const preload = Module.createRequire(path.join(process.cwd(), '[preload]'));
  for (const p of o.preload) preload(p);
  if (o.eval !== undefined) {
    setProcess(o.rest);
    return afterImports(o, () => runSource('[eval]', o.eval, o));
  }
  const script = o.rest[0];
  if (script === undefined || script === '-') {
    setProcess(o.rest);
    const text = native.decode(new Uint8Array(native.fs.readStdin()), 'utf8');
    return afterImports(o, () => runSource('[stdin]', text, o));
  }
  const resolved = path.resolve(script);
  setProcess([resolved, ...o.rest.slice(1)]);
  const file = Module._resolveFilename(resolved, null, true);
  const isModule = require('resolve').format(file, false) === 'module';
  if (o.check) {
    const text = stripHashbang(native.module.readText(file));
    if (isModule) native.module.checkModule(text, file);
    else native.module.compile(Module.wrap(text), file);
    return { exit: 0 };
  }
  return afterImports(o, () => (isModule ? import(file) : Module.runMain(file)));
}

// --import modules load (in order) before the program runs.
function afterImports(o, run) {
  if (o.imports.length === 0) return run();
  const resolveFrom = path.join(process.cwd(), '[import]');
  let chain = Promise.resolve();
  for (const spec of o.imports) {
    chain = chain.then(() => import(require('resolve').isRelative(spec) ? path.resolve(spec) : esmResolve(spec, resolveFrom)));
  }
  return chain.then(run);
}

function stripHashbang(text) {
  return text.startsWith('#!') ? '//' + text.slice(2) : text;
}

function esmResolve(spec, from) {
  const r = require('resolve').resolve(spec, path.dirname(from), true);
  return r === undefined ? spec : r;
}

// Code from -e/-p or stdin.
function runSource(name, text, o) {
  if (o.inputType === 'module') {
    return native.module.evalModule(text, path.join(process.cwd(), name));
  }
  const result = require('cjs').evalScript(name, stripHashbang(text));
  if (o.print) console.log(result);
  return undefined;
}

module.exports = { main, VERSION };
