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

// QuickJS's column lands somewhere inside the call (the callee or an argument), so
// take the innermost call around it whose callee reads like an assertion (`ok`,
// `assert`, `strict`, `x.ok`), else the innermost call around it. Returns the text
// and its column (node re-indents continuation lines by it).
function callText(src, offset) {
  const re = /[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*\s*\(/g;
  let best = null;
  let fallback = null;
  for (let m; (m = re.exec(src)) !== null && m.index <= offset;) {
    re.lastIndex = m.index + m[0].length;
    const end = closeParen(src, m.index + m[0].length - 1);
    if (end === -1 || end < offset) continue;
    const callee = m[0].replace(/[\s(]+$/, '');
    const last = /[A-Za-z_$][\w$]*$/.exec(callee);
    const found = { text: src.slice(m.index, end + 1), column: m.index };
    fallback = found;
    if (/^(ok|assert|strict)$/.test(last[0])) best = found;
  }
  return best || fallback;
}

function falsyMessage(stack) {
  const site = callSite(stack);
  if (site === null) return undefined;
  const src = readSource(site.file);
  if (src === null) return undefined;
  const lines = src.split('\n');
  if (site.line > lines.length) return undefined;
  const lineStart = lines.slice(0, site.line - 1).reduce((n, l) => n + l.length + 1, 0);
  const call = callText(src.slice(lineStart), site.column - 1);
  if (!call) return undefined;
  const { column } = call;
  const [head, ...rest] = call.text.split('\n');
  let message = head;
  for (const frame of rest) {
    let pos = 0;
    while (pos < column && (frame[pos] === ' ' || frame[pos] === '\t')) pos++;
    message += `\n  ${frame.slice(pos)}`;
  }
  return `The expression evaluated to a falsy value:\n\n  ${message}\n`;
}

module.exports = { falsyMessage };
