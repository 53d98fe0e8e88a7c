// AssertionError and the messages node 20 builds for it: values shown as
// util.inspect does with `compact: false, sorted: true, getters: true` (one entry per
// line, which is what makes a line diff readable), and the `+ actual - expected`
// line diff of strictEqual/deepStrictEqual.
'use strict';

const { inspect } = require('inspect');

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const INDEX = /^(0|[1-9][0-9]*)$/;

function constructorName(obj) {
  for (let p = Object.getPrototypeOf(obj); p !== null; p = Object.getPrototypeOf(p)) {
    const d = Object.getOwnPropertyDescriptor(p, 'constructor');
    if (d && typeof d.value === 'function' && d.value.name) return d.value.name;
  }
  return null;
}

// A long string with newlines is shown as `'line\n' +` continuation lines.
function showString(str, indent) {
  const whole = inspect(str);
  if (str.length <= 16 || str.length <= 80 - indent.length - 4 || !str.includes('\n')) return whole;
  const parts = str.split(/(?<=\n)/).map((p) => inspect(p));
  return parts.join(` +\n${indent}  `);
}

function showKey(key) {
  if (typeof key === 'symbol') return `[${key.toString()}]`;
  return IDENT.test(key) ? key : inspect(key);
}

class Block {
  constructor() {
    this.seen = [];
    this.refs = new Map();
  }

  value(v, indent) {
    if (typeof v === 'string') return showString(v, indent);
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return inspect(v);
    if (this.seen.includes(v)) {
      if (!this.refs.has(v)) this.refs.set(v, this.refs.size + 1);
      return `[Circular *${this.refs.get(v)}]`;
    }
    this.seen.push(v);
    let text;
    try {
      text = this.object(v, indent);
    } finally {
      this.seen.pop();
    }
    return this.refs.has(v) ? `<ref *${this.refs.get(v)}> ${text}` : text;
  }

  property(obj, key, indent) {
    return `${showKey(key)}: ${this.shown(obj, key, indent)}`;
  }

  shown(obj, key, indent) {
    const d = Object.getOwnPropertyDescriptor(obj, key);
    let shown;
    if ('value' in d) {
      shown = this.value(d.value, indent);
    } else if (d.get) {
      let got;
      try {
        got = this.value(d.get.call(obj), indent);
      } catch (e) {
        got = `<Inspection threw (${e && e.message})>`;
      }
      shown = d.set ? `[Getter/Setter: ${got}]` : `[Getter: ${got}]`;
    } else {
      shown = '[Setter]';
    }
    return shown;
  }

  keys(obj, skipIndices) {
    const keys = Object.keys(obj).filter((k) => !(skipIndices && INDEX.test(k)));
    for (const s of Object.getOwnPropertySymbols(obj)) {
      if (Object.prototype.propertyIsEnumerable.call(obj, s)) keys.push(s);
    }
    return keys;
  }

  object(v, indent) {
    const inner = indent + '  ';
    const props = (skip) => this.keys(v, skip).map((k) => this.property(v, k, inner));
    const list = (prefix, open, close, entries) => {
      if (entries.length === 0) return `${prefix}${open}${close}`;
      return `${prefix}${open}\n${inner}${entries.join(`,\n${inner}`)}\n${indent}${close}`;
    };
    const name = constructorName(v);
    if (Array.isArray(v)) {
      const prefix = name && name !== 'Array' ? `${name}(${v.length}) ` : '';
      return list(prefix, '[', ']', this.items(v, inner).concat(props(true).sort()));
    }
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
      const tname = Object.prototype.toString.call(v).slice(8, -1);
      const prefix = name === tname ? `${tname}(${v.length}) ` : `${name}(${v.length}) [${tname}] `;
      const items = Array.from(v, (x) => inspect(x));
      return list(prefix, '[', ']', items.concat(props(true).sort()));
    }
    if (v instanceof Map) {
      const entries = [...v].map(([k, x]) => `${this.value(k, inner)} => ${this.value(x, inner)}`);
      return list(`${name || 'Map'}(${v.size}) `, '{', '}', entries.concat(props(false)).sort());
    }
    if (v instanceof Set) {
      const entries = [...v].map((x) => this.value(x, inner));
      return list(`${name || 'Set'}(${v.size}) `, '{', '}', entries.concat(props(false)).sort());
    }
    const own = props(false).sort();
    let base = null;
    if (typeof v === 'function' || v instanceof Date || v instanceof RegExp || v instanceof Error) {
      base = inspect(v, { depth: -1 });
      if (v instanceof Error) base = base.replace(/ \{[\s\S]*$/, '');
    } else if (isBoxed(v)) {
      base = inspect(v);
    }
    if (base !== null) return own.length ? list(`${base} `, '{', '}', own) : base;
    let prefix = '';
    if (Object.getPrototypeOf(v) === null) prefix = '[Object: null prototype] ';
    else if (name && name !== 'Object') prefix = `${name} `;
    return list(prefix, '{', '}', own);
  }

  items(arr, inner) {
    const out = [];
    let holes = 0;
    const flush = () => {
      if (holes) out.push(`<${holes} empty item${holes > 1 ? 's' : ''}>`);
      holes = 0;
    };
    for (let i = 0; i < arr.length; i++) {
      if (!Object.prototype.hasOwnProperty.call(arr, i)) {
        holes++;
        continue;
      }
      flush();
      out.push(this.shown(arr, String(i), inner));
    }
    flush();
    return out;
  }
}

function isBoxed(v) {
  const tag = Object.prototype.toString.call(v);
  return ['[object Number]', '[object String]', '[object Boolean]', '[object BigInt]', '[object Symbol]'].includes(tag);
}

function inspectValue(v) {
  return new Block().value(v, '');
}

const READABLE = {
  deepStrictEqual: 'Expected values to be strictly deep-equal:',
  strictEqual: 'Expected values to be strictly equal:',
  strictEqualObject: 'Expected "actual" to be reference-equal to "expected":',
  deepEqual: 'Expected values to be loosely deep-equal:',
  notDeepStrictEqual: 'Expected "actual" not to be strictly deep-equal to:',
  notStrictEqual: 'Expected "actual" to be strictly unequal to:',
  notStrictEqualObject: 'Expected "actual" not to be reference-equal to "expected":',
  notDeepEqual: 'Expected "actual" not to be loosely deep-equal to:',
  notIdentical: 'Values have same structure but are not reference-equal:',
  notDeepEqualUnequal: 'Expected values not to be loosely deep-equal:',
};

const isObjectLike = (v) => typeof v === 'object' && v !== null;

const SHORT = 12;

// Single-line values that differ: short primitives read best as `a !== b`; a longer
// pair under 80 columns gets a caret under the first differing character. Returns
// the whole message, or the caret and the count of characters skipped (the count
// keeps counting trailing identical lines below: node shares the variable).
function singleLine(actual, expected, a, b, header, operator) {
  const length = a.length + b.length;
  if (length <= SHORT) {
    if (!isObjectLike(actual) && !isObjectLike(expected) && (actual !== 0 || expected !== 0)) {
      return { message: `${header}\n\n${a} !== ${b}\n` };
    }
    return { i: 0, indicator: '' };
  }
  if (operator === 'strictEqualObject' || length >= 80) return { i: 0, indicator: '' };
  let i = 0;
  while (a[i] === b[i]) i++;
  if (i > 2) return { i: 0, indicator: `\n  ${' '.repeat(i)}^` };
  return { i, indicator: '' };
}

class LineDiff {
  constructor(actualLines, expectedLines) {
    this.actual = actualLines;
    this.expected = expectedLines;
    this.res = '';
    this.other = '';
    this.printed = 0;
    this.identical = 0;
    this.skipped = false;
  }

  // Up to three identical lines before a difference are shown, more are elided.
  context(src, i) {
    const n = this.identical;
    if (n > 4) {
      if (n === 5) this.show(src[i - 3]);
      else {
        this.res += '\n...';
        this.skipped = true;
      }
    }
    if (n > 3) this.show(src[i - 2]);
    if (n > 2) this.show(src[i - 1]);
    this.identical = 0;
  }

  show(line) {
    this.res += `\n  ${line}`;
    this.printed++;
  }

  // Returns the truncated message when the output grows past ~50 lines.
  run(msg) {
    const { actual, expected } = this;
    const maxLines = Math.max(actual.length, expected.length);
    const longer = actual.length < maxLines ? expected : actual;
    const sign = longer === actual ? '+' : '-';
    const common = longer === actual ? expected.length : actual.length;
    for (let i = 0; i < maxLines; i++) {
      if (common < i + 1) {
        this.context(longer, i);
        if (longer === actual) this.res += `\n${sign} ${longer[i]}`;
        else this.other += `\n${sign} ${longer[i]}`;
        this.printed++;
      } else {
        this.compare(i);
      }
      if (this.printed > 50 && i < maxLines - 2) {
        return `${msg} ... Lines skipped\n${this.res}\n...${this.other}\n...`;
      }
    }
    return null;
  }

  compare(i) {
    const expectedLine = this.expected[i];
    let actualLine = this.actual[i];
    // Lines that differ only by a trailing comma are the same entry.
    let diverging = actualLine !== expectedLine && (!actualLine.endsWith(',') || actualLine.slice(0, -1) !== expectedLine);
    if (diverging && expectedLine.endsWith(',') && expectedLine.slice(0, -1) === actualLine) {
      diverging = false;
      actualLine += ',';
    }
    if (diverging) {
      this.context(this.actual, i);
      this.res += `\n+ ${actualLine}`;
      this.other += `\n- ${expectedLine}`;
      this.printed += 2;
    } else {
      this.res += this.other;
      this.other = '';
      this.identical++;
      if (this.identical <= 2) this.show(actualLine);
    }
  }
}

function truncatedLines(text) {
  const lines = text.split('\n');
  if (lines.length > 50) {
    lines[46] = '...';
    lines.length = 47;
  }
  return lines;
}

function createErrDiff(actual, expected, operator, message = '') {
  const actualInspected = inspectValue(actual);
  const actualLines = actualInspected.split('\n');
  const expectedLines = inspectValue(expected).split('\n');
  if (operator === 'strictEqual' &&
      ((isObjectLike(actual) && isObjectLike(expected)) || (typeof actual === 'function' && typeof expected === 'function'))) {
    operator = 'strictEqualObject';
  }
  const header = message || READABLE[operator];
  let i = 0;
  let indicator = '';
  if (actualLines.length === 1 && expectedLines.length === 1 && actualLines[0] !== expectedLines[0]) {
    const r = singleLine(actual, expected, actualLines[0], expectedLines[0], header, operator);
    if (r.message) return r.message;
    ({ i, indicator } = r);
  }
  // Identical trailing lines are cut; the last three stay as context.
  let end = '';
  let other = '';
  while (actualLines.length && expectedLines.length && actualLines[actualLines.length - 1] === expectedLines[expectedLines.length - 1]) {
    const line = actualLines.pop();
    expectedLines.pop();
    if (i++ < 3) end = `\n  ${line}${end}`;
    else other = line;
  }
  if (Math.max(actualLines.length, expectedLines.length) === 0) {
    return `${READABLE.notIdentical}\n\n${truncatedLines(actualInspected).join('\n')}\n`;
  }
  let skipped = false;
  if (i >= 5) {
    end = `\n...${end}`;
    skipped = true;
  }
  if (other !== '') end = `\n  ${other}${end}`;
  const msg = `${header}\n+ actual - expected`;
  const diff = new LineDiff(actualLines, expectedLines);
  const cut = diff.run(msg);
  if (cut !== null) return cut;
  skipped ||= diff.skipped;
  return `${msg}${skipped ? ' ... Lines skipped' : ''}\n${diff.res}${diff.other}${end}${indicator}`;
}

module.exports = { inspectValue, READABLE, isObjectLike, createErrDiff, truncatedLines };
