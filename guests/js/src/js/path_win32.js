// path.win32: Windows paths (`\` and `/` separators, drive letters, UNC roots), by
// Node's algorithms, for programs that build or parse such paths on any platform.
'use strict';

const isSep = (c) => c === 47 || c === 92; // '/' '\'
const isDriveLetter = (c) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

function checkString(p, name) {
  if (typeof p !== 'string') {
    const got = p === null ? 'null' : typeof p === 'object' ? `an instance of ${p.constructor ? p.constructor.name : 'Object'}` : `type ${typeof p} (${String(p)})`;
    const err = new TypeError(`The "${name}" argument must be of type string. Received ${got}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
}

// Resolves `.` and `..` in a path without its root.
function normalizeString(path, allowAboveRoot) {
  let res = '';
  let lastSegmentLength = 0;
  let lastSlash = -1;
  let dots = 0;
  let code = 0;
  for (let i = 0; i <= path.length; ++i) {
    if (i < path.length) code = path.charCodeAt(i);
    else if (isSep(code)) break;
    else code = 47;
    if (isSep(code)) {
      if (lastSlash === i - 1 || dots === 1) {
        // nothing
      } else if (dots === 2) {
        if (res.length < 2 || lastSegmentLength !== 2 || !res.endsWith('..')) {
          if (res.length > 2) {
            const lastSlashIndex = res.lastIndexOf('\\');
            if (lastSlashIndex === -1) {
              res = '';
              lastSegmentLength = 0;
            } else {
              res = res.slice(0, lastSlashIndex);
              lastSegmentLength = res.length - 1 - res.lastIndexOf('\\');
            }
            lastSlash = i;
            dots = 0;
            continue;
          } else if (res.length !== 0) {
            res = '';
            lastSegmentLength = 0;
            lastSlash = i;
            dots = 0;
            continue;
          }
        }
        if (allowAboveRoot) {
          res += res.length > 0 ? '\\..' : '..';
          lastSegmentLength = 2;
        }
      } else {
        if (res.length > 0) res += '\\' + path.slice(lastSlash + 1, i);
        else res = path.slice(lastSlash + 1, i);
        lastSegmentLength = i - lastSlash - 1;
      }
      lastSlash = i;
      dots = 0;
    } else if (code === 46 && dots !== -1) {
      ++dots;
    } else {
      dots = -1;
    }
  }
  return res;
}

// The root of `path`: { device, rootEnd, isAbsolute }.
function rootOf(path) {
  const len = path.length;
  let rootEnd = 0;
  let device = '';
  let isAbsolute = false;
  const code = path.charCodeAt(0);
  if (len === 1) {
    if (isSep(code)) return { device, rootEnd: 1, isAbsolute: true };
    return { device, rootEnd, isAbsolute };
  }
  if (isSep(code)) {
    isAbsolute = true;
    if (isSep(path.charCodeAt(1))) {
      // A UNC root: \\server\share
      let j = 2;
      let last = j;
      while (j < len && !isSep(path.charCodeAt(j))) j++;
      if (j < len && j !== last) {
        const first = path.slice(last, j);
        last = j;
        while (j < len && isSep(path.charCodeAt(j))) j++;
        if (j < len && j !== last) {
          last = j;
          while (j < len && !isSep(path.charCodeAt(j))) j++;
          if (j === len || j !== last) {
            device = `\\\\${first}\\${path.slice(last, j)}`;
            rootEnd = j;
          }
        }
      }
    } else {
      rootEnd = 1;
    }
  } else if (isDriveLetter(code) && path.charCodeAt(1) === 58) {
    device = path.slice(0, 2);
    rootEnd = 2;
    if (len > 2 && isSep(path.charCodeAt(2))) {
      isAbsolute = true;
      rootEnd = 3;
    }
  }
  return { device, rootEnd, isAbsolute };
}

const win32 = {
  sep: '\\',
  delimiter: ';',

  normalize(path) {
    checkString(path, 'path');
    if (path.length === 0) return '.';
    const { device, rootEnd, isAbsolute } = rootOf(path);
    let tail = rootEnd < path.length ? normalizeString(path.slice(rootEnd), !isAbsolute) : '';
    if (tail.length === 0 && !isAbsolute) tail = '.';
    if (tail.length > 0 && isSep(path.charCodeAt(path.length - 1))) tail += '\\';
    if (device === undefined || device === '') return isAbsolute ? `\\${tail}` : tail;
    return isAbsolute ? `${device}\\${tail}` : `${device}${tail}`;
  },

  isAbsolute(path) {
    checkString(path, 'path');
    const len = path.length;
    if (len === 0) return false;
    const code = path.charCodeAt(0);
    return isSep(code) || (len > 2 && isDriveLetter(code) && path.charCodeAt(1) === 58 && isSep(path.charCodeAt(2)));
  },

  join(...args) {
    if (args.length === 0) return '.';
    let joined;
    for (const arg of args) {
      checkString(arg, 'path');
      if (arg.length > 0) joined = joined === undefined ? arg : `${joined}\\${arg}`;
    }
    if (joined === undefined) return '.';
    return win32.normalize(joined);
  },

  resolve(...args) {
    let device = '';
    let tail = '';
    let absolute = false;
    for (let i = args.length - 1; i >= -1; i--) {
      let path;
      if (i >= 0) {
        path = args[i];
        checkString(path, `paths[${i}]`);
        if (path.length === 0) continue;
      } else {
        path = process.cwd();
      }
      const root = rootOf(path);
      if (root.device.length > 0 && device.length > 0 && root.device.toLowerCase() !== device.toLowerCase()) continue;
      if (device.length === 0 && root.device.length > 0) device = root.device;
      if (!absolute) {
        tail = `${path.slice(root.rootEnd)}\\${tail}`;
        absolute = root.isAbsolute;
      }
      if (absolute && device.length > 0) break;
    }
    tail = normalizeString(tail, !absolute);
    return absolute ? `${device}\\${tail}` : `${device}${tail}` || '.';
  },

  relative(from, to) {
    checkString(from, 'from');
    checkString(to, 'to');
    if (from === to) return '';
    const fromOrig = win32.resolve(from);
    const toOrig = win32.resolve(to);
    if (fromOrig === toOrig) return '';
    const a = fromOrig.toLowerCase().split('\\').filter(Boolean);
    const b = toOrig.toLowerCase().split('\\').filter(Boolean);
    const orig = toOrig.split('\\').filter(Boolean);
    if (a[0] !== b[0]) return toOrig;
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return [...Array(a.length - i).fill('..'), ...orig.slice(i)].join('\\');
  },

  toNamespacedPath(path) {
    if (typeof path !== 'string' || path.length === 0) return path;
    const resolved = win32.resolve(path);
    if (resolved.length <= 2) return path;
    if (resolved.startsWith('\\\\')) {
      if (resolved[2] !== '?' && resolved[2] !== '.') return `\\\\?\\UNC\\${resolved.slice(2)}`;
    } else if (isDriveLetter(resolved.charCodeAt(0)) && resolved[1] === ':' && resolved[2] === '\\') {
      return `\\\\?\\${resolved}`;
    }
    return path;
  },

  dirname(path) {
    checkString(path, 'path');
    if (path.length === 0) return '.';
    const { rootEnd } = rootOf(path);
    let end = -1;
    let matchedSlash = true;
    for (let i = path.length - 1; i >= rootEnd; --i) {
      if (isSep(path.charCodeAt(i))) {
        if (!matchedSlash) {
          end = i;
          break;
        }
      } else {
        matchedSlash = false;
      }
    }
    if (end === -1) {
      if (rootEnd === 0) return '.';
      end = rootEnd;
    }
    return path.slice(0, end);
  },

  basename(path, suffix) {
    checkString(path, 'path');
    if (suffix !== undefined) checkString(suffix, 'ext');
    let start = 0;
    if (path.length >= 2 && isDriveLetter(path.charCodeAt(0)) && path.charCodeAt(1) === 58) start = 2;
    let end = path.length;
    while (end > start && isSep(path.charCodeAt(end - 1))) end--;
    let i = end - 1;
    while (i >= start && !isSep(path.charCodeAt(i))) i--;
    const base = path.slice(i + 1, end);
    if (suffix !== undefined && suffix.length > 0 && base !== suffix && base.endsWith(suffix)) {
      return base.slice(0, base.length - suffix.length);
    }
    return base;
  },

  extname(path) {
    checkString(path, 'path');
    const base = win32.basename(path);
    const dot = base.lastIndexOf('.');
    if (dot <= 0 || base === '..') return '';
    return base.slice(dot);
  },

  parse(path) {
    checkString(path, 'path');
    const ret = { root: '', dir: '', base: '', ext: '', name: '' };
    if (path.length === 0) return ret;
    let { rootEnd } = rootOf(path);
    // A UNC root keeps its separator: \\server\share\.
    if (path.startsWith('\\\\') || path.startsWith('//')) {
      if (rootEnd < path.length && isSep(path.charCodeAt(rootEnd))) rootEnd++;
    }
    ret.root = path.slice(0, rootEnd);
    if (rootEnd === path.length) {
      ret.dir = ret.root;
      return ret;
    }
    ret.base = win32.basename(path.slice(rootEnd));
    ret.ext = win32.extname(ret.base);
    ret.name = ret.ext ? ret.base.slice(0, ret.base.length - ret.ext.length) : ret.base;
    const dir = win32.dirname(path);
    const hasSeparator = /[\\/]/.test(path.slice(rootEnd).replace(/[\\/]+$/, ''));
    ret.dir = dir === '.' && rootEnd === 0 && !hasSeparator ? '' : dir;
    return ret;
  },

  format(obj) {
    if (obj === null || typeof obj !== 'object') {
      const err = new TypeError(`The "pathObject" argument must be of type object. Received ${obj === null ? 'null' : `type ${typeof obj} (${String(obj)})`}`);
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    const dir = obj.dir || obj.root;
    const base = obj.base || `${obj.name || ''}${obj.ext ? (obj.ext[0] === '.' ? '' : '.') + obj.ext : ''}`;
    if (!dir) return base;
    return dir === obj.root ? `${dir}${base}` : `${dir}\\${base}`;
  },
};

win32.win32 = win32;
module.exports = win32;
