// The message of a failed `assert(expr)` / `assert.ok(expr)`: node quotes the call
// from the caller's source file. Without a readable source (the run's own [eval]
// module) it is undefined, and the message becomes `false == true` as in node.
'use strict';

const { callerFrames } = require('assert_error');

function callSite(stack) {
  const first = callerFrames(stack).split('\n')[0] || '';
  const m = /\(?([^()\s]+):(\d+):(\d+)\)?$/.exec(first.trim());
  return m ? { file: m[1], line: Number(m[2]), column: Number(m[3]) } : null;
}

function readSource(file) {
  if (!file.startsWith('/') || file.endsWith('[eval]')) return null;
  try {
    return require('fs').readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

// From the `(` of the call, the text up to its matching `)`, skipping strings.
function closeParen(src, open) {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < src.length && src[i] !== c; i++) if (src[i] === '\\') i++;
    } else if (c === '(') {
      depth++;
    } else if (c === ')' && --depth === 0) {
      return i;
    }
  }
  return -1;
}

// The call whose callee spans the frame's position (a stack points at the callee's
// last name: `ok` of `assert.ok(`), up to its matching `)`.
function callText(src, offset) {
  const re = /[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*\s*\(/g;
  for (let m; (m = re.exec(src)) !== null && m.index <= offset;) {
    if (offset >= m.index + m[0].length) continue;
    const end = closeParen(src, m.index + m[0].length - 1);
    return end === -1 ? null : src.slice(m.index, end + 1);
  }
  return null;
}

function falsyMessage(stack) {
  const site = callSite(stack);
  if (site === null) return undefined;
  const src = readSource(site.file);
  if (src === null) return undefined;
  const lines = src.split('\n');
  if (site.line > lines.length) return undefined;
  const lineStart = lines.slice(0, site.line - 1).reduce((n, l) => n + l.length + 1, 0);
  const code = callText(src.slice(lineStart), site.column - 1);
  if (!code) return undefined;
  const column = site.column - 1;
  const [head, ...rest] = code.split('\n');
  let message = head;
  for (const frame of rest) {
    let pos = 0;
    while (pos < column && (frame[pos] === ' ' || frame[pos] === '\t')) pos++;
    message += `\n  ${frame.slice(pos)}`;
  }
  return `The expression evaluated to a falsy value:\n\n  ${message}\n`;
}

module.exports = { falsyMessage };
