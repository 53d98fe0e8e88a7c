// `npm` as far as it makes sense without the registry: `npm run NAME [-- ARGS]`,
// `npm test`/`start`/`stop`/`restart`, `npm run` (the list), with `pre`/`post`
// scripts, `node_modules/.bin` on PATH and npm's `npm_*` variables, printed and
// exiting as npm 10/11 does. Installing packages needs the registry, which the
// sandbox cannot reach: those commands say to use the container backend.
'use strict';

const path = require('path');

const INSTALLS = new Set(['install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'isntall',
  'add', 'ci', 'clean-install', 'install-clean', 'ic', 'uninstall', 'remove', 'rm', 'r', 'un', 'unlink', 'update',
  'up', 'upgrade', 'udpate', 'install-test', 'it', 'cit', 'link', 'ln', 'publish', 'dedupe', 'prune', 'rebuild', 'audit', 'outdated']);
const SHORTCUTS = { t: 'test', tst: 'test', test: 'test', start: 'start', stop: 'stop', restart: 'restart' };
const LIFECYCLE = ['prepare', 'prepublishOnly', 'prepack', 'postpack', 'dependencies', 'test', 'start', 'stop', 'restart'];

let quiet = false;
let ifPresent = false;

function fail(message, code = 1) {
  native.write(2, message.split('\n').map((l) => (l ? `npm error ${l}` : 'npm error')).join('\n') + '\n');
  return { exit: code };
}

function findPackage(dir) {
  for (let d = dir; ; d = path.dirname(d)) {
    const file = path.join(d, 'package.json');
    if (native.module.kind(file) === 'file') return { dir: d, file };
    if (d === '/') return null;
  }
}

function shellQuote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function runScript(pkg, dir, event, script, args) {
  const cmd = args.length ? `${script} ${args.map(shellQuote).join(' ')}` : script;
  if (!quiet) native.write(1, `\n> ${pkg.name ? `${pkg.name}@${pkg.version || ''}` : ''} ${event}\n> ${cmd}\n\n`);
  const bins = [];
  for (let d = dir; ; d = path.dirname(d)) {
    bins.push(path.join(d, 'node_modules', '.bin'));
    if (d === '/') break;
  }
  const env = Object.assign({}, process.env, {
    PATH: [...bins, process.env.PATH || '/usr/local/bin:/usr/bin:/bin'].join(':'),
    npm_lifecycle_event: event,
    npm_lifecycle_script: script,
    npm_package_name: pkg.name || '',
    npm_package_version: pkg.version || '',
    npm_package_json: path.join(dir, 'package.json'),
    npm_command: 'run-script',
    npm_node_execpath: '/usr/bin/node',
    INIT_CWD: process.cwd(),
  });
  const r = require('child_process').spawnSync('sh', ['-c', cmd], { cwd: dir, env, stdio: 'inherit' });
  if (r.error) throw r.error;
  return r.status === null ? 1 : r.status;
}

function listScripts(pkg) {
  const scripts = pkg.scripts || {};
  const names = Object.keys(scripts);
  if (names.length === 0) return { exit: 0 };
  const isLifecycle = (n) => LIFECYCLE.includes(n.replace(/^(pre|post)/, '')) || LIFECYCLE.includes(n);
  const life = names.filter(isLifecycle);
  const other = names.filter((n) => !isLifecycle(n));
  let out = '';
  const id = `${pkg.name}@${pkg.version}`;
  if (life.length) out += `Lifecycle scripts included in ${id}:\n` + life.map((n) => `  ${n}\n    ${scripts[n]}\n`).join('');
  if (other.length) out += 'available via `npm run`:\n' + other.map((n) => `  ${n}\n    ${scripts[n]}\n`).join('');
  native.write(1, out);
  return { exit: 0 };
}

function run(name, args) {
  const found = findPackage(process.cwd());
  if (!found) {
    return fail(`code ENOENT\nsyscall open\npath ${path.join(process.cwd(), 'package.json')}\nerrno -2\nenoent Could not read package.json: Error: ENOENT: no such file or directory, open '${path.join(process.cwd(), 'package.json')}'`, 254);
  }
  const pkg = JSON.parse(native.module.readText(found.file));
  if (name === undefined) return listScripts(pkg);
  const scripts = pkg.scripts || {};
  if (scripts[name] === undefined) {
    if (ifPresent) return { exit: 0 };
    if (name === 'start' && native.module.kind(path.join(found.dir, 'server.js')) === 'file') {
      scripts.start = 'node server.js';
    } else if (name === 'test') {
      return fail('Missing script: "test"\n\nTo see a list of scripts, run:\n  npm run');
    } else {
      return fail(`Missing script: "${name}"\n\nTo see a list of scripts, run:\n  npm run`);
    }
  }
  for (const event of [`pre${name}`, name, `post${name}`]) {
    if (scripts[event] === undefined) continue;
    const code = runScript(pkg, found.dir, event, scripts[event], event === name ? args : []);
    if (code !== 0) return { exit: code };
  }
  return { exit: 0 };
}

// npm's own options may come anywhere before `--`; they are npm's, not the script's.
function splitFlags(argv) {
  const flags = [];
  const args = [];
  let rest = null;
  for (const a of argv) {
    if (rest) rest.push(a);
    else if (a === '--') rest = [];
    else if (a.startsWith('-') && a !== '-') flags.push(a);
    else args.push(a);
  }
  return { flags, args: rest ? [...args, ...rest] : args };
}

function main(argv) {
  const { flags, args } = splitFlags(argv.slice(1));
  quiet = flags.some((f) => f === '-s' || f === '--silent' || f === '--loglevel=silent' || f === '-q' || f === '--quiet');
  ifPresent = flags.includes('--if-present');
  if (flags.includes('-v') || flags.includes('--version')) {
    native.write(1, '10.0.0-computer\n');
    return { exit: 0 };
  }
  const command = args.shift();
  if (command === undefined || command === 'help' || flags.includes('-h')) {
    native.write(1, 'npm <command>\n\nUsage (in this sandbox):\n\nnpm run <script> [-- <args>]\nnpm test | start | stop | restart\nnpm run            list the scripts\n\nnpm install and the registry need the container backend.\n');
    return { exit: command === undefined ? 1 : 0 };
  }
  if (INSTALLS.has(command)) {
    return fail(`\`npm ${command}\` needs the npm registry, which the WebAssembly sandbox cannot reach.\n` +
      'Run it with the container backend (e.g. `computer exec --backend container \'npm install\'`): it works in\n' +
      'the same workspace, and the packages it installs into node_modules then run here with `node`.');
  }
  const rest = args;
  if (command === 'run' || command === 'run-script' || command === 'rum' || command === 'urn') {
    return run(rest[0], rest.slice(1));
  }
  if (SHORTCUTS[command]) return run(SHORTCUTS[command], rest);
  if (command === 'exec' || command === 'x') {
    return fail('`npm exec` is not available here: run the command from node_modules/.bin directly.');
  }
  return fail(`Unknown command: "${command}"\n\nTo see a list of supported npm commands, run:\n  npm help`);
}

module.exports = { main };
