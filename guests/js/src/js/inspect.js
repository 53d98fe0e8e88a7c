// util.inspect and util.format, close to Node's output for the common cases:
// `{ a: 1, b: 'x' }`, `[ 1, 2, 3 ]`, nesting cut at depth 2 (`[Object]`), circular
// references, Map/Set, errors with their stack, Buffers, typed arrays. Written for
// this guest; it does not try to match every corner of Node's layout.
'use strict';

const BREAK_LENGTH = 80;
const MAX_ARRAY_LENGTH = 100;
const MAX_STRING_LENGTH = 10000;

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function quote(str) {
  let q = "'";
  if (str.includes("'")) {
    if (!str.includes('"')) q = '"';
    else if (!str.includes('`') && !str.includes('${')) q = '`';
  }
  let out = '';
  for (let i = 0; i < str.length; i++) {
    const c = str[i];
    const code = str.charCodeAt(i);
    if (c === q || c === '\\') out += '\\' + c;
    else if (c === '\n') out += '\\n';
    else if (c === '\t') out += '\\t';
    else if (c === '\r') out += '\\r';
    else if (c === '\b') out += '\\b';
    else if (c === '\f') out += '\\f';
    else if (c === '\v') out += '\\v';
    else if (code < 0x20 || code === 0x7f) out += '\\x' + code.toString(16).padStart(2, '0').toUpperCase();
    else out += c;
  }
  return q + out + q;
}

function formatNumber(n) {
  return Object.is(n, -0) ? '-0' : String(n);
}

function formatPrimitive(value, ctx) {
  switch (typeof value) {
    case 'string': {
      if (value.length > MAX_STRING_LENGTH) {
        const rest = value.length - MAX_STRING_LENGTH;
        return quote(value.slice(0, MAX_STRING_LENGTH)) + `... ${rest} more character${rest > 1 ? 's' : ''}`;
      }
      return quote(value);
    }
    case 'number': return formatNumber(value);
    case 'bigint': return `${value}n`;
    case 'boolean': return String(value);
    case 'undefined': return 'undefined';
    case 'symbol': return value.toString();
    default: return value === null ? 'null' : String(value);
  }
}

function formatKey(key) {
  if (typeof key === 'symbol') return `[${key.toString()}]`;
  return IDENT.test(key) ? key : quote(key);
}

function constructorName(obj) {
  let proto = Object.getPrototypeOf(obj);
  while (proto !== null) {
    const desc = Object.getOwnPropertyDescriptor(proto, 'constructor');
    if (desc !== undefined && typeof desc.value === 'function' && desc.value.name !== '') return desc.value.name;
    proto = Object.getPrototypeOf(proto);
  }
  return null;
}

function functionBase(fn) {
  const src = Function.prototype.toString.call(fn);
  const name = fn.name;
  if (src.startsWith('class') && /^class[\s{]/.test(src)) {
    const ext = Object.getPrototypeOf(fn);
    let base = `[class ${name || '(anonymous)'}`;
    if (ext && ext !== Function.prototype && ext.name) base += ` extends ${ext.name}`;
    return base + ']';
  }
  let kind = 'Function';
  const tag = fn[Symbol.toStringTag];
  if (tag === 'AsyncFunction') kind = 'AsyncFunction';
  else if (tag === 'GeneratorFunction') kind = 'GeneratorFunction';
  else if (tag === 'AsyncGeneratorFunction') kind = 'AsyncGeneratorFunction';
  return name ? `[${kind}: ${name}]` : `[${kind} (anonymous)]`;
}

function errorText(err) {
  let header;
  try {
    header = Error.prototype.toString.call(err);
  } catch {
    header = 'Error';
  }
  const name = constructorName(err);
  // A subclass without its own `name` still prints as its class (like V8 stacks).
  if (name && name !== err.name && header.startsWith(err.name) && err.name === 'Error') {
    header = name + header.slice(err.name.length);
  }
  const stack = typeof err.stack === 'string' ? err.stack.replace(/\n+$/, '') : '';
  if (stack === '') return header;
  // QuickJS stacks hold only the frames; V8 stacks start with the header.
  // A coded error's stack may start `Error [CODE]: message`, as Node's do.
  const coded = typeof err.code === 'string' && stack.startsWith(`${err.name} [${err.code}]: `);
  return stack.startsWith(header) || coded ? stack : `${header}\n${stack}`;
}

function typedArrayName(value) {
  return Object.prototype.toString.call(value).slice(8, -1);
}

function isBuffer(value) {
  const B = globalThis.Buffer;
  return typeof B === 'function' && value instanceof B;
}

function hexBytes(bytes, max) {
  let out = '';
  const n = Math.min(bytes.length, max);
  for (let i = 0; i < n; i++) out += (i ? ' ' : '') + bytes[i].toString(16).padStart(2, '0');
  if (bytes.length > max) out += ` ... ${bytes.length - max} more byte${bytes.length - max > 1 ? 's' : ''}`;
  return out;
}

// With `getters: true` (or 'get'/'set': only those with no setter / with one), a
// getter's value is shown too, as Node does: `[Getter: 1]`.
function getters(desc, ctx, owner) {
  const kind = desc.get && desc.set ? 'Getter/Setter' : desc.get ? 'Getter' : 'Setter';
  const want = ctx && ctx.options.getters;
  if (desc.get && want && (want === true || (want === 'get' && !desc.set) || (want === 'set' && desc.set))) {
    try {
      const v = desc.get.call(owner);
      return `[${kind}: ${formatValue(v, ctx)}]`;
    } catch (e) {
      return `[${kind}: <Inspection threw (${e && e.message})>]`;
    }
  }
  return `[${kind}]`;
}

// Own enumerable properties (symbols included) as `key: value` strings.
function propertyEntries(value, ctx, skipIndices, filter) {
  const out = [];
  const keys = ctx.showHidden ? Reflect.ownKeys(value) : Object.keys(value);
  if (!ctx.showHidden) {
    for (const s of Object.getOwnPropertySymbols(value)) {
      if (Object.prototype.propertyIsEnumerable.call(value, s)) keys.push(s);
    }
  }
  for (const key of keys) {
    if (skipIndices && typeof key === 'string' && /^(0|[1-9][0-9]*)$/.test(key)) continue;
    if (filter && filter(key)) continue;
    const desc = Object.getOwnPropertyDescriptor(value, key);
    if (desc === undefined) continue;
    const shown = 'value' in desc ? formatValue(desc.value, ctx) : getters(desc, ctx, value);
    out.push(`${formatKey(key)}: ${shown}`);
  }
  return out;
}

function formatList(entries, ctx, open, close, prefix, isArrayLike, forceBreak) {
  if (entries.length === 0) return `${prefix}${open}${close}`;
  let total = prefix.length + open.length + close.length + ctx.indent.length;
  let multiline = Boolean(forceBreak);
  for (const e of entries) {
    total += e.length + 2;
    if (e.includes('\n')) multiline = true;
  }
  if (!multiline && total <= BREAK_LENGTH - 4) return `${prefix}${open} ${entries.join(', ')} ${close}`;
  const inner = ctx.indent + '  ';
  let lines = entries;
  if (isArrayLike && !multiline && entries.length > 6) lines = groupColumns(entries, inner.length);
  return `${prefix}${open}\n${inner}${lines.join(`,\n${inner}`)}\n${ctx.indent}${close}`;
}

// Many short array items go into aligned columns instead of one per line.
function groupColumns(entries, indent) {
  let widest = 0;
  for (const e of entries) widest = Math.max(widest, e.length);
  const cell = widest + 2;
  if (widest > 16 || cell * 3 + indent > BREAK_LENGTH) return entries;
  const fit = Math.floor((BREAK_LENGTH - indent) / cell);
  const columns = Math.max(1, Math.min(fit, 12));
  if (columns <= 1) return entries;
  const numeric = entries.every((e) => /^-?[0-9.]/.test(e));
  const rows = [];
  for (let i = 0; i < entries.length; i += columns) {
    const row = entries.slice(i, i + columns);
    rows.push(row.map((e, j) => {
      const last = i + j === entries.length - 1 || j === row.length - 1;
      const text = last ? e : e + ',';
      return numeric ? text.padStart(last ? widest : widest + 1) : (last ? text : text.padEnd(widest + 1));
    }).join(' '));
  }
  return rows;
}

function formatValue(value, ctx) {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    return formatPrimitive(value, ctx);
  }
  const seen = ctx.seen.indexOf(value);
  if (seen !== -1) {
    let ref = ctx.circular.get(value);
    if (ref === undefined) {
      ref = ctx.circular.size + 1;
      ctx.circular.set(value, ref);
    }
    return `[Circular *${ref}]`;
  }
  const custom = value[Symbol.for('nodejs.util.inspect.custom')];
  if (typeof custom === 'function') {
    const out = custom.call(value, ctx.depth - ctx.level, { ...ctx.options }, inspect);
    if (out !== value) return typeof out === 'string' ? out : formatValue(out, ctx);
  }
  ctx.seen.push(value);
  let text;
  try {
    text = formatObject(value, ctx);
  } finally {
    ctx.seen.pop();
  }
  const ref = ctx.circular.get(value);
  if (ref !== undefined) text = `<ref *${ref}> ${text}`;
  return text;
}

function nested(ctx, fn) {
  const saved = ctx.indent;
  ctx.level++;
  ctx.indent += '  ';
  try {
    return fn();
  } finally {
    ctx.level--;
    ctx.indent = saved;
  }
}

function tooDeep(ctx) {
  return ctx.depth !== null && ctx.level > ctx.depth;
}

function formatObject(value, ctx) {
  const name = constructorName(value);
  const tag = value[Symbol.toStringTag];

  if (typeof value === 'function') {
    const base = functionBase(value);
    if (tooDeep(ctx)) return base;
    const props = nested(ctx, () => propertyEntries(value, ctx, false, (k) => k === 'prototype'));
    return props.length ? formatList(props, ctx, '{', '}', base + ' ', false) : base;
  }
  if (Array.isArray(value)) {
    if (tooDeep(ctx)) return value.length === 0 && Object.keys(value).length === 0 ? '[]' : '[Array]';
    const prefix = name !== 'Array' && name !== null ? `${name}(${value.length}) ` : '';
    const entries = nested(ctx, () => arrayEntries(value, ctx));
    return formatList(entries, ctx, '[', ']', prefix, true);
  }
  if (value instanceof Error) {
    const text = errorText(value);
    if (tooDeep(ctx)) return `[${text.split('\n')[0]}]`;
    const props = nested(ctx, () => propertyEntries(value, ctx, false, (k) => k === 'stack' || k === 'message'));
    if (value.cause !== undefined && !Object.prototype.propertyIsEnumerable.call(value, 'cause')) {
      props.push(`[cause]: ${nested(ctx, () => formatValue(value.cause, ctx))}`);
    }
    const indented = ctx.indent ? text.split('\n').join('\n' + ctx.indent) : text;
    // Properties of an error with a stack go below it, one per line, as in Node.
    return props.length ? `${indented} ${formatList(props, ctx, '{', '}', '', false, indented.includes('\n'))}` : indented;
  }
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    if (isBuffer(value)) return `<Buffer${value.length ? ' ' : ''}${hexBytes(value, 50)}>`;
    const tname = typedArrayName(value);
    if (tooDeep(ctx)) return `[${tname}]`;
    const entries = nested(ctx, () => {
      const out = [];
      const n = Math.min(value.length, MAX_ARRAY_LENGTH);
      for (let i = 0; i < n; i++) out.push(formatPrimitive(value[i], ctx));
      if (value.length > n) out.push(`... ${value.length - n} more item${value.length - n > 1 ? 's' : ''}`);
      return out;
    });
    return formatList(entries, ctx, '[', ']', `${tname}(${value.length}) `, true);
  }
  if (value instanceof ArrayBuffer) {
    const bytes = new Uint8Array(value);
    return `ArrayBuffer { [Uint8Contents]: <${hexBytes(bytes, 50)}>, byteLength: ${value.byteLength} }`;
  }
  if (value instanceof Map) {
    const prefix = `${name || 'Map'}(${value.size}) `;
    if (tooDeep(ctx)) return `[${name || 'Map'}]`;
    const entries = nested(ctx, () => {
      const out = [];
      for (const [k, v] of value) out.push(`${formatValue(k, ctx)} => ${formatValue(v, ctx)}`);
      return out.concat(propertyEntries(value, ctx, false));
    });
    return formatList(entries, ctx, '{', '}', prefix, false);
  }
  if (value instanceof Set) {
    const prefix = `${name || 'Set'}(${value.size}) `;
    if (tooDeep(ctx)) return `[${name || 'Set'}]`;
    const entries = nested(ctx, () => {
      const out = [];
      for (const v of value) out.push(formatValue(v, ctx));
      return out.concat(propertyEntries(value, ctx, false));
    });
    return formatList(entries, ctx, '{', '}', prefix, true);
  }
  if (value instanceof Date) {
    const text = Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
    const props = nested(ctx, () => propertyEntries(value, ctx, false));
    return props.length ? formatList(props, ctx, '{', '}', text + ' ', false) : text;
  }
  if (value instanceof RegExp) {
    const text = RegExp.prototype.toString.call(value);
    const props = nested(ctx, () => propertyEntries(value, ctx, false, (k) => k === 'lastIndex'));
    return props.length ? formatList(props, ctx, '{', '}', text + ' ', false) : text;
  }
  if (value instanceof Promise) {
    const info = ctx.promiseInfo ? ctx.promiseInfo(value) : null;
    if (info === null) return 'Promise { <unknown> }';
    if (info[0] === 'pending') return 'Promise { <pending> }';
    const shown = nested(ctx, () => formatValue(info[1], ctx));
    return info[0] === 'rejected' ? `Promise { <rejected> ${shown} }` : `Promise { ${shown} }`;
  }
  if (value instanceof WeakMap) return 'WeakMap { <items unknown> }';
  if (value instanceof WeakSet) return 'WeakSet { <items unknown> }';
  for (const [Box, label] of [[Number, 'Number'], [String, 'String'], [Boolean, 'Boolean'], [BigInt, 'BigInt'], [Symbol, 'Symbol']]) {
    if (Box.prototype && Object.prototype.toString.call(value) === `[object ${label}]` && !(Symbol.toStringTag in value && label !== tag)) {
      try {
        const prim = Box.prototype.valueOf.call(value);
        return `[${label}: ${formatPrimitive(prim, ctx)}]`;
      } catch {
        break;
      }
    }
  }

  // A plain object or a class instance.
  let prefix = '';
  const proto = Object.getPrototypeOf(value);
  if (proto === null) prefix = '[Object: null prototype] ';
  else if (name !== null && name !== 'Object') prefix = `${name} `;
  if (typeof tag === 'string' && tag !== '' && tag !== name) {
    prefix = `${prefix || 'Object '}[${tag}] `;
  }
  // Past the depth, an object with nothing to show is still shown, as Node does.
  if (tooDeep(ctx)) return Reflect.ownKeys(value).length === 0 && !prefix.trim() ? '{}' : `[${prefix.trim() || 'Object'}]`;
  const entries = nested(ctx, () => propertyEntries(value, ctx, false));
  return formatList(entries, ctx, '{', '}', prefix, false);
}

function arrayEntries(value, ctx) {
  const out = [];
  const n = Math.min(value.length, MAX_ARRAY_LENGTH);
  let holes = 0;
  const flush = () => {
    if (holes) out.push(`<${holes} empty item${holes > 1 ? 's' : ''}>`);
    holes = 0;
  };
  for (let i = 0; i < n; i++) {
    if (!Object.prototype.hasOwnProperty.call(value, i)) {
      holes++;
      continue;
    }
    flush();
    out.push(formatValue(value[i], ctx));
  }
  flush();
  if (value.length > n) out.push(`... ${value.length - n} more item${value.length - n > 1 ? 's' : ''}`);
  return out.concat(propertyEntries(value, ctx, true, (k) => k === 'length'));
}

function inspect(value, options) {
  const opts = typeof options === 'object' && options !== null ? options : {};
  const ctx = {
    options: opts,
    depth: opts.depth === undefined ? 2 : opts.depth === Infinity ? null : opts.depth,
    showHidden: Boolean(opts.showHidden),
    level: 0,
    indent: '',
    seen: [],
    circular: new Map(),
    promiseInfo: native.promiseInfo,
  };
  return formatValue(value, ctx);
}
inspect.custom = Symbol.for('nodejs.util.inspect.custom');
inspect.defaultOptions = { depth: 2 };

// A string argument is shown raw at the top level; everything else as inspect does.
function formatArg(arg) {
  return typeof arg === 'string' ? arg : inspect(arg);
}

// Whether `value`'s toString is the built-in one (Node's hasBuiltInToString): `%s`
// shows an object with its own toString as String(value) does.
function hasBuiltInToString(value) {
  for (let o = value; o !== null; o = Object.getPrototypeOf(o)) {
    if (Object.prototype.hasOwnProperty.call(o, 'toString')) {
      const ctor = Object.prototype.hasOwnProperty.call(o, 'constructor') ? o.constructor : undefined;
      return o === Object.prototype || o === Array.prototype || o === Error.prototype ||
        o === Date.prototype || o === RegExp.prototype || o === Function.prototype ||
        (typeof ctor === 'function' && /\{\s*\[native code\]\s*\}/.test(Function.prototype.toString.call(ctor)));
    }
  }
  return true;
}

function format(first, ...args) {
  if (typeof first !== 'string') return [first, ...args].map(formatArg).join(' ');
  if (args.length === 0) return first;
  let out = '';
  let argIndex = 0;
  let last = 0;
  for (let i = 0; i < first.length - 1; i++) {
    if (first.charCodeAt(i) !== 37) continue; // '%'
    const spec = first[i + 1];
    if (spec === '%') {
      out += first.slice(last, i) + '%';
      last = i + 2;
      i++;
      continue;
    }
    if (argIndex >= args.length || !'sdifjoOc'.includes(spec)) continue;
    const arg = args[argIndex++];
    let text;
    switch (spec) {
      case 's':
        if (typeof arg === 'bigint') text = `${arg}n`;
        else if (typeof arg === 'symbol') text = arg.toString();
        else if (typeof arg === 'number') text = formatNumber(arg);
        else if (typeof arg === 'object' && arg !== null && hasBuiltInToString(arg)) text = inspect(arg, { depth: 0 });
        else text = String(arg);
        break;
      case 'd':
        text = typeof arg === 'bigint' ? `${arg}n` : typeof arg === 'symbol' ? 'NaN' : formatNumber(Number(arg));
        break;
      case 'i':
        text = typeof arg === 'bigint' ? `${arg}n` : typeof arg === 'symbol' ? 'NaN' : formatNumber(parseInt(arg, 10));
        break;
      case 'f':
        text = typeof arg === 'symbol' ? 'NaN' : formatNumber(parseFloat(arg));
        break;
      case 'j':
        try {
          text = JSON.stringify(arg);
        } catch (e) {
          text = '[Circular]';
        }
        break;
      case 'o':
        text = inspect(arg, { showHidden: true, depth: 4 });
        break;
      case 'O':
        text = inspect(arg);
        break;
      case 'c':
        text = '';
        break;
    }
    out += first.slice(last, i) + text;
    last = i + 2;
    i++;
  }
  out += first.slice(last);
  for (let i = argIndex; i < args.length; i++) out += ' ' + formatArg(args[i]);
  return out;
}

// console.table for arrays/objects of rows.
function table(data) {
  if (data === null || typeof data !== 'object') return formatArg(data);
  const rows = Object.keys(data);
  const columns = [];
  let hasValues = false;
  for (const r of rows) {
    const row = data[r];
    if (row !== null && typeof row === 'object') {
      for (const c of Object.keys(row)) if (!columns.includes(c)) columns.push(c);
    } else {
      hasValues = true;
    }
  }
  const header = ['(index)', ...columns, ...(hasValues ? ['Values'] : [])];
  const cell = (v) => (v === undefined ? '' : inspect(v, { depth: 0 }));
  const body = rows.map((r) => {
    const row = data[r];
    const isObj = row !== null && typeof row === 'object';
    return [r, ...columns.map((c) => (isObj ? cell(row[c]) : '')), ...(hasValues ? [isObj ? '' : cell(row)] : [])];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)) + 2);
  const center = (s, w) => {
    const left = Math.floor((w - s.length) / 2);
    return ' '.repeat(left) + s + ' '.repeat(w - s.length - left);
  };
  const line = (l, m, r) => l + widths.map((w) => '─'.repeat(w)).join(m) + r;
  const out = [line('┌', '┬', '┐'), '│' + header.map((h, i) => center(h, widths[i])).join('│') + '│', line('├', '┼', '┤')];
  for (const b of body) out.push('│' + b.map((c, i) => center(c, widths[i])).join('│') + '│');
  out.push(line('└', '┴', '┘'));
  return out.join('\n');
}

module.exports = { inspect, format, table, errorText };
