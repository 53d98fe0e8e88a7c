// The URL Standard's host parser: IPv6 and IPv4 addresses (with their serializers),
// opaque hosts, and domains through a small domain-to-ASCII (lower-casing, NFC, the
// ideographic full stops, and Punycode for non-ASCII labels; not all of UTS #46).
// Results are serialized hosts, or null on failure.
'use strict';

const FORBIDDEN_HOST = /[\u0000\t\n\r #/:<>?@[\\\]^|]/;
const FORBIDDEN_DOMAIN = /[\u0000-\u001f #%/:<>?@[\\\]^|\u007f]/;

function parseIPv4Number(s) {
  if (s === '') return NaN;
  let radix = 10;
  if (s.length >= 2 && (s.startsWith('0x') || s.startsWith('0X'))) {
    radix = 16;
    s = s.slice(2);
  } else if (s.length >= 2 && s[0] === '0') {
    radix = 8;
    s = s.slice(1);
  }
  if (s === '') return 0;
  const ok = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!ok.test(s)) return NaN;
  return parseInt(s, radix);
}

function endsInNumber(s) {
  const parts = s.split('.');
  if (parts[parts.length - 1] === '') {
    if (parts.length === 1) return false;
    parts.pop();
  }
  const last = parts[parts.length - 1];
  if (last !== '' && /^[0-9]+$/.test(last)) return true;
  return !Number.isNaN(parseIPv4Number(last));
}

function parseIPv4(s) {
  const parts = s.split('.');
  if (parts[parts.length - 1] === '' && parts.length > 1) parts.pop();
  if (parts.length > 4) return null;
  const nums = [];
  for (const p of parts) {
    const n = parseIPv4Number(p);
    if (Number.isNaN(n)) return null;
    nums.push(n);
  }
  for (let i = 0; i < nums.length - 1; i++) if (nums[i] > 255) return null;
  const last = nums[nums.length - 1];
  if (last >= 256 ** (5 - nums.length)) return null;
  let ipv4 = last;
  for (let i = 0; i < nums.length - 1; i++) ipv4 += nums[i] * 256 ** (3 - i);
  const out = [];
  for (let i = 0; i < 4; i++) {
    out.unshift(String(ipv4 % 256));
    ipv4 = Math.floor(ipv4 / 256);
  }
  return out.join('.');
}

const hexDigit = (c) => c !== undefined && /^[0-9a-fA-F]$/.test(c);

function parseIPv6(input) {
  const addr = [0, 0, 0, 0, 0, 0, 0, 0];
  let piece = 0;
  let compress = null;
  let i = 0;
  const cps = Array.from(input);
  if (cps[0] === ':') {
    if (cps[1] !== ':') return null;
    i += 2;
    compress = ++piece;
  }
  while (cps[i] !== undefined) {
    if (piece === 8) return null;
    if (cps[i] === ':') {
      if (compress !== null) return null;
      i++;
      compress = ++piece;
      continue;
    }
    let value = 0;
    let length = 0;
    while (length < 4 && hexDigit(cps[i])) {
      value = value * 16 + parseInt(cps[i], 16);
      i++;
      length++;
    }
    if (cps[i] === '.') {
      if (length === 0) return null;
      i -= length;
      if (piece > 6) return null;
      let seen = 0;
      while (cps[i] !== undefined) {
        let v4 = null;
        if (seen > 0) {
          if (cps[i] === '.' && seen < 4) i++;
          else return null;
        }
        if (!/^[0-9]$/.test(cps[i] || '')) return null;
        while (/^[0-9]$/.test(cps[i] || '')) {
          const n = Number(cps[i]);
          if (v4 === null) v4 = n;
          else if (v4 === 0) return null;
          else v4 = v4 * 10 + n;
          if (v4 > 255) return null;
          i++;
        }
        addr[piece] = addr[piece] * 256 + v4;
        seen++;
        if (seen === 2 || seen === 4) piece++;
      }
      if (seen !== 4) return null;
      break;
    } else if (cps[i] === ':') {
      i++;
      if (cps[i] === undefined) return null;
    } else if (cps[i] !== undefined) return null;
    addr[piece++] = value;
  }
  if (compress !== null) {
    let swaps = piece - compress;
    piece = 7;
    while (piece !== 0 && swaps > 0) {
      const t = addr[compress + swaps - 1];
      addr[compress + swaps - 1] = addr[piece];
      addr[piece] = t;
      piece--;
      swaps--;
    }
  } else if (piece !== 8) return null;
  return addr;
}

function serializeIPv6(addr) {
  // The first longest run of two or more zero pieces is compressed to '::'.
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && addr[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j === i ? i + 1 : j;
  }
  let out = '';
  let ignore0 = false;
  for (let i = 0; i < 8; i++) {
    if (ignore0 && addr[i] === 0) continue;
    ignore0 = false;
    if (best === i) {
      out += i === 0 ? '::' : ':';
      ignore0 = true;
      continue;
    }
    out += addr[i].toString(16);
    if (i !== 7) out += ':';
  }
  return out;
}

// RFC 3492 Punycode encoding of one label.
function punycode(label) {
  const cps = Array.from(label, (c) => c.codePointAt(0));
  const digit = (d) => String.fromCharCode(d < 26 ? 97 + d : 22 + d);
  const adapt = (delta, numPoints, first) => {
    delta = first ? Math.floor(delta / 700) : delta >> 1;
    delta += Math.floor(delta / numPoints);
    let k = 0;
    while (delta > 455) {
      delta = Math.floor(delta / 35);
      k += 36;
    }
    return k + Math.floor((36 * delta) / (delta + 38));
  };
  let out = cps.filter((c) => c < 0x80).map((c) => String.fromCharCode(c)).join('');
  const basic = out.length;
  let h = basic;
  if (basic > 0) out += '-';
  let n = 128;
  let delta = 0;
  let bias = 72;
  while (h < cps.length) {
    const m = Math.min(...cps.filter((c) => c >= n));
    delta += (m - n) * (h + 1);
    n = m;
    for (const c of cps) {
      if (c < n) delta++;
      if (c !== n) continue;
      let q = delta;
      for (let k = 36; ; k += 36) {
        const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
        if (q < t) break;
        out += digit(t + ((q - t) % (36 - t)));
        q = Math.floor((q - t) / (36 - t));
      }
      out += digit(q);
      bias = adapt(delta, h + 1, h === basic);
      delta = 0;
      h++;
    }
    delta++;
    n++;
  }
  return out;
}

function domainToASCII(domain) {
  let d = domain.normalize('NFC').toLowerCase().replace(/[\u3002\uff0e\uff61]/g, '.');
  // Soft hyphen and zero-width characters are mapped to nothing by UTS #46.
  d = d.replace(/[\u00ad\u200b\u2060\ufeff]/g, '');
  if (!/[^\u0000-\u007f]/.test(d)) return d === '' ? null : d;
  const labels = d.split('.').map((l) => (/[^\u0000-\u007f]/.test(l) ? 'xn--' + punycode(l) : l));
  return labels.join('.');
}

function parseHost(input, isOpaque) {
  const { percentEncode, percentDecode } = require('url_parse');
  if (input[0] === '[') {
    if (input[input.length - 1] !== ']') return null;
    const addr = parseIPv6(input.slice(1, -1));
    return addr === null ? null : '[' + serializeIPv6(addr) + ']';
  }
  if (isOpaque) {
    if (FORBIDDEN_HOST.test(input)) return null;
    return percentEncode(input, (c) => c < 0x20 || c > 0x7e);
  }
  const ascii = domainToASCII(percentDecode(input));
  if (ascii === null || FORBIDDEN_DOMAIN.test(ascii)) return null;
  if (endsInNumber(ascii)) return parseIPv4(ascii);
  return ascii;
}

module.exports = { parseHost, domainToASCII, punycode };
