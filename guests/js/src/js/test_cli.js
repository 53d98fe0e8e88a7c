// `node --test [paths...]`: finds the test files as node 20 does, runs each as its
// own `node FILE` process, and merges their TAP into one stream: top-level results
// renumbered, other output of a file shown as `# ` comments, each file's summary
// folded into one plan and summary. A file that reports no test is itself a test
// named by its path, failing when the process failed.
'use strict';

const TEST_NAME = /^(?:.*[.\-_]test|test-.*|test)\.(?:js|mjs|cjs)$/;
const JS_FILE = /\.(?:js|mjs|cjs)$/;
const SUMMARY = /^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\S+)$/;

function isTestFile(rel) {
  const parts = rel.split('/');
  const base = parts[parts.length - 1];
  if (TEST_NAME.test(base) && !/^\.test\./.test(base)) return true;
  return JS_FILE.test(base) && parts.slice(0, -1).includes('test');
}

function walk(fs, path, dir, rel, out, all) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.name === 'node_modules') continue;
    const abs = path.join(dir, e.name);
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) walk(fs, path, abs, r, out, all);
    else if (all ? JS_FILE.test(e.name) : isTestFile(r)) out.push(abs);
  }
}

function findFiles(args) {
  const fs = require('fs');
  const path = require('path');
  const cwd = process.cwd();
  const files = [];
  if (args.length === 0) {
    walk(fs, path, cwd, '', files, false);
    return files.sort();
  }
  for (const arg of args) {
    const abs = path.resolve(cwd, arg);
    let st;
    try {
      st = fs.statSync(abs);
    } catch {
      const err = new Error(`Could not find '${abs}'`);
      err.code = 'ENOENT';
      throw err;
    }
    if (st.isDirectory()) {
      const found = [];
      walk(fs, path, abs, '', found, false);
      files.push(...found.sort());
    } else {
      files.push(abs);
    }
  }
  return files;
}

class Merger {
  constructor() {
    this.topLevel = 0;
    this.totals = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
    this.lines = [];
  }

  // Returns whether the file reported a top-level test.
  add(stdout, stderr) {
    let yamlIndent = null;
    let reported = false;
    let sawPlan = false;
    for (const line of stdout.split(/\r?\n/)) {
      if (yamlIndent !== null) {
        this.lines.push(line);
        if (line === `${yamlIndent}  ...`) yamlIndent = null;
        continue;
      }
      const m = /^( *)(ok|not ok) (\d+)(.*)$/.exec(line);
      if (m) {
        if (m[1] === '') {
          reported = true;
          this.lines.push(`${m[2]} ${++this.topLevel}${m[4]}`);
        } else {
          this.lines.push(line);
        }
        yamlIndent = m[1];
        continue;
      }
      if (line === 'TAP version 13' || line === '') continue;
      if (/^1\.\.\d+$/.test(line)) {
        sawPlan = true;
        continue;
      }
      const s = SUMMARY.exec(line);
      if (s && sawPlan) {
        if (s[1] !== 'duration_ms') this.totals[s[1]] += Number(s[2]);
        continue;
      }
      if (/^ *(# |1\.\.\d+$)/.test(line)) this.lines.push(line);
      else this.lines.push(`# ${line}`);
    }
    for (const line of stderr.split(/\r?\n/)) if (line !== '') this.lines.push(`# ${line}`);
    return reported;
  }

  // A file without results of its own stands for one test, numbered (as node
  // does) by its place in the file list.
  addFile(file, number, status, ms) {
    const ok = status === 0;
    this.topLevel++;
    this.totals.tests++;
    this.totals[ok ? 'pass' : 'fail']++;
    this.lines.push(`# Subtest: ${file}`, `${ok ? 'ok' : 'not ok'} ${number} - ${file}`, '  ---', `  duration_ms: ${ms}`);
    if (!ok) {
      this.lines.push(`  location: '${file}:1:1'`, "  failureType: 'testCodeFailure'", `  exitCode: ${status}`, '  signal: ~',
        "  error: 'test failed'", "  code: 'ERR_TEST_FAILURE'");
    }
    this.lines.push('  ...');
  }
}

function defaultSpawn(file) {
  let cp;
  try {
    cp = require('child_process');
  } catch {
    const err = new Error('node --test needs child processes, which are not available in this sandbox');
    err.code = 'ERR_NOT_SUPPORTED_IN_SANDBOX';
    throw err;
  }
  return cp.spawnSync('node', [file], { encoding: 'utf8' });
}

// Returns the exit code; `spawn(file)` gives { status, stdout, stderr }.
function runCli(args = [], spawn = defaultSpawn) {
  const started = performance.now();
  let files;
  try {
    files = findFiles(args);
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    return 1;
  }
  const merger = new Merger();
  let failed = false;
  for (const [i, file] of files.entries()) {
    const t0 = performance.now();
    const r = spawn(file);
    const status = r.status ?? 1;
    if (!merger.add(String(r.stdout ?? ''), String(r.stderr ?? ''))) {
      merger.addFile(file, i + 1, status, performance.now() - t0);
      if (status !== 0) failed = true;
    } else if (status !== 0) {
      failed = true;
    }
  }
  const t = merger.totals;
  const out = ['TAP version 13', ...merger.lines, `1..${merger.topLevel}`];
  for (const key of ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo']) out.push(`# ${key} ${t[key]}`);
  out.push(`# duration_ms ${performance.now() - started}`);
  process.stdout.write(`${out.join('\n')}\n`);
  return failed || t.fail > 0 || t.cancelled > 0 ? 1 : 0;
}

module.exports = { runCli, findFiles, Merger };
