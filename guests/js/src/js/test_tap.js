// node:test's TAP reporter, as node 20 prints it when stdout is not a terminal:
// `# Subtest:` lines, `ok N - name # SKIP`, the YAML block of each result (duration,
// type, location, the error's message/code/name/expected/actual/operator/stack) and
// 4 spaces of indent per nesting level.
'use strict';

const { inspect } = require('inspect');

const INDENT = '    ';
const LINE_BREAK = /\n|\r\n/;

// Node's reporter is a stream, so its lines reach stdout a little after the tests
// that produced them; a test's own synchronous and microtask output comes first.
let buffered = '';
let scheduled = false;
function out(text) {
  buffered += text;
  if (scheduled) return;
  scheduled = true;
  setImmediate(flush);
}

function flush() {
  scheduled = false;
  const text = buffered;
  buffered = '';
  if (text !== '') process.stdout.write(text);
}

function indent(nesting) {
  return INDENT.repeat(nesting);
}

function tapEscape(input) {
  return String(input)
    .replaceAll('\b', '\\b')
    .replaceAll('\f', '\\f')
    .replaceAll('\t', '\\t')
    .replaceAll('\n', '\\n')
    .replaceAll('\r', '\\r')
    .replaceAll('\v', '\\v')
    .replaceAll('\\', '\\\\')
    .replaceAll('#', '\\#');
}

const isError = (v) => v instanceof Error;
const isAssertionLike = (v) => Boolean(v) && typeof v === 'object' && 'expected' in v && 'actual' in v;

function scalar(prefix, indentText, value) {
  if (typeof value !== 'string') return `${prefix} ${inspect(value)}\n`;
  const lines = value.split(LINE_BREAK);
  if (lines.length === 1) return `${prefix} ${inspect(value)}\n`;
  return `${prefix} |-\n${lines.map((l) => `${indentText}    ${l}\n`).join('')}`;
}

function jsToYaml(indentText, name, value, seen) {
  if (value === undefined) return '';
  const prefix = `${indentText}  ${name}:`;
  if (value === null) return `${prefix} ~\n`;
  if (typeof value !== 'object') return scalar(prefix, indentText, value);
  seen.add(value);
  const errorObj = isError(value);
  let propsIndent = indentText;
  let result = '';
  if (name != null) {
    result += prefix;
    if (value instanceof Date) result += ' ' + value.toISOString();
    result += '\n';
    propsIndent += '  ';
  }
  for (const [key, v] of Object.entries(value)) {
    if (errorObj && (key === 'cause' || key === 'code')) continue;
    if (seen.has(v)) {
      result += `${propsIndent}  ${key}: <Circular>\n`;
      continue;
    }
    result += jsToYaml(propsIndent, key, v, seen);
  }
  if (errorObj) result += errorYaml(indentText, value, seen);
  return result;
}

// A test failure wraps what the test threw (`cause`); the YAML shows the cause.
function errorYaml(indentText, value, seen) {
  const { cause, code, failureType, message, expected, actual, operator, stack, name } = value;
  let err = { message: message ?? '<unknown error>', name, stack, code, expected, actual, operator, assertion: isAssertionLike(value) };
  if (code === 'ERR_TEST_FAILURE' && UNWRAP.has(failureType)) {
    err = {
      message: cause?.message ?? err.message,
      name: cause?.name ?? name,
      stack: cause?.stack ?? stack,
      code: cause?.code ?? code,
      expected,
      actual,
      operator,
      assertion: err.assertion,
    };
    if (isAssertionLike(cause)) {
      err.expected = cause.expected;
      err.actual = cause.actual;
      err.operator = cause.operator ?? operator;
      err.assertion = true;
    }
  }
  let result = jsToYaml(indentText, 'error', err.message, seen);
  if (err.code) result += jsToYaml(indentText, 'code', err.code, seen);
  if (err.name && err.name !== 'Error') result += jsToYaml(indentText, 'name', err.name, seen);
  if (err.assertion) {
    result += jsToYaml(indentText, 'expected', err.expected, new Set(seen));
    result += jsToYaml(indentText, 'actual', err.actual, new Set(seen));
    if (err.operator) result += jsToYaml(indentText, 'operator', err.operator, seen);
  }
  if (typeof err.stack === 'string') {
    const frames = [];
    for (const frame of err.stack.split(LINE_BREAK)) {
      const processed = frame.replace(/^ {4}at /, '');
      if (processed.length > 0 && processed.length !== frame.length) frames.push(processed);
    }
    if (frames.length > 0) {
      const delimiter = `\n${indentText}    `;
      result += `${indentText}  stack: |-${delimiter}${frames.join(delimiter)}\n`;
    }
  }
  return result;
}

const UNWRAP = new Set(['testCodeFailure', 'hookFailed', 'uncaughtException', 'unhandledRejection']);

function details(nesting, data, location) {
  const ind = indent(nesting);
  let text = `${ind}  ---\n`;
  text += jsToYaml(ind, 'duration_ms', data.duration_ms);
  text += jsToYaml(ind, 'type', data.type);
  if (location) text += jsToYaml(ind, 'location', location);
  text += jsToYaml(ind, null, data.error, new Set());
  return `${text}${ind}  ...\n`;
}

function directive(skip, todo) {
  if (skip !== undefined) return ` # SKIP${typeof skip === 'string' && skip.length ? ` ${tapEscape(skip)}` : ''}`;
  if (todo !== undefined) return ` # TODO${typeof todo === 'string' && todo.length ? ` ${tapEscape(todo)}` : ''}`;
  return '';
}

const reporter = {
  version() {
    out('TAP version 13\n');
  },
  start(nesting, name) {
    out(`${indent(nesting)}# Subtest: ${tapEscape(name)}\n`);
  },
  // `result` is { nesting, number, name, passed, skip, todo, details, location }.
  result(r) {
    let line = `${indent(r.nesting)}${r.passed ? 'ok' : 'not ok'} ${r.number}`;
    if (r.name) line += ` ${tapEscape(`- ${r.name}`)}`;
    out(`${line}${directive(r.skip, r.todo)}\n`);
    out(details(r.nesting, r.details, r.passed ? null : r.location));
  },
  plan(nesting, count) {
    out(`${indent(nesting)}1..${count}\n`);
  },
  diagnostic(nesting, message) {
    out(`${indent(nesting)}# ${tapEscape(message)}\n`);
  },
};

module.exports = { reporter, tapEscape, indent, flush };
