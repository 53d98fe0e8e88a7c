// The states of the URL Standard's basic URL parser, one function each, named as in
// the spec. A state gets the machine `m` and the code point `c` (undefined at EOF);
// `m.i--` is the spec's "decrease pointer by 1".
'use strict';

module.exports = function states(h) {
  const { RETURN, FAILURE } = h;
  const S = {};
  const endOfAuthority = (m, c) => c === undefined || c === '/' || c === '?' || c === '#' || (m.special && c === '\\');
  const isSlash = (m, c) => c === '/' || (m.special && c === '\\');

  S.schemeStart = (m, c) => {
    if (h.isAlpha(c)) {
      m.buffer += c.toLowerCase();
      m.state = 'scheme';
    } else if (!m.override) {
      m.state = 'noScheme';
      m.i--;
    } else return FAILURE;
  };

  S.scheme = (m, c) => {
    const url = m.url;
    if (c !== undefined && /^[A-Za-z0-9+\-.]$/.test(c)) {
      m.buffer += c.toLowerCase();
    } else if (c === ':') {
      if (m.override) {
        if (h.isSpecialScheme(url.scheme) !== h.isSpecialScheme(m.buffer)) return RETURN;
        if ((h.includesCredentials(url) || url.port !== null) && m.buffer === 'file') return RETURN;
        if (url.scheme === 'file' && url.host === '') return RETURN;
      }
      url.scheme = m.buffer;
      if (m.override) {
        if (url.port === h.defaultPort(url.scheme)) url.port = null;
        return RETURN;
      }
      m.buffer = '';
      if (url.scheme === 'file') m.state = 'file';
      else if (m.special && m.base && m.base.scheme === url.scheme) m.state = 'specialRelativeOrAuthority';
      else if (m.special) m.state = 'specialAuthoritySlashes';
      else if (m.remaining(1) === '/') {
        m.state = 'pathOrAuthority';
        m.i++;
      } else {
        url.opaque = true;
        url.path = '';
        m.state = 'opaquePath';
      }
    } else if (!m.override) {
      m.buffer = '';
      m.state = 'noScheme';
      m.i = -1;
    } else return FAILURE;
  };

  S.noScheme = (m, c) => {
    const base = m.base;
    const url = m.url;
    if (!base || (base.opaque && c !== '#')) return FAILURE;
    if (base.opaque && c === '#') {
      url.scheme = base.scheme;
      url.path = base.path;
      url.opaque = true;
      url.query = base.query;
      url.fragment = '';
      m.state = 'fragment';
    } else {
      m.state = base.scheme !== 'file' ? 'relative' : 'file';
      m.i--;
    }
  };

  S.specialRelativeOrAuthority = (m, c) => {
    if (c === '/' && m.remaining(1) === '/') {
      m.state = 'specialAuthorityIgnoreSlashes';
      m.i++;
    } else {
      m.state = 'relative';
      m.i--;
    }
  };

  S.pathOrAuthority = (m, c) => {
    if (c === '/') m.state = 'authority';
    else {
      m.state = 'path';
      m.i--;
    }
  };

  S.relative = (m, c) => {
    const url = m.url;
    const base = m.base;
    url.scheme = base.scheme;
    if (isSlash(m, c)) {
      m.state = 'relativeSlash';
      return;
    }
    h.copyAuthority(url, base);
    url.path = base.path.slice();
    url.query = base.query;
    if (c === '?') {
      url.query = '';
      m.state = 'query';
    } else if (c === '#') {
      url.fragment = '';
      m.state = 'fragment';
    } else if (c !== undefined) {
      url.query = null;
      h.shortenPath(url);
      m.state = 'path';
      m.i--;
    }
  };

  S.relativeSlash = (m, c) => {
    if (m.special && (c === '/' || c === '\\')) m.state = 'specialAuthorityIgnoreSlashes';
    else if (c === '/') m.state = 'authority';
    else {
      h.copyAuthority(m.url, m.base);
      m.state = 'path';
      m.i--;
    }
  };

  S.specialAuthoritySlashes = (m, c) => {
    m.state = 'specialAuthorityIgnoreSlashes';
    if (c === '/' && m.remaining(1) === '/') m.i++;
    else m.i--;
  };

  S.specialAuthorityIgnoreSlashes = (m, c) => {
    if (c !== '/' && c !== '\\') {
      m.state = 'authority';
      m.i--;
    }
  };

  S.authority = (m, c) => {
    const url = m.url;
    if (c === '@') {
      if (m.at) m.buffer = '%40' + m.buffer;
      m.at = true;
      for (const ch of m.buffer) {
        if (ch === ':' && !m.passwordSeen) {
          m.passwordSeen = true;
          continue;
        }
        const enc = h.percentEncode(ch, h.userinfoSet);
        if (m.passwordSeen) url.password += enc;
        else url.username += enc;
      }
      m.buffer = '';
    } else if (endOfAuthority(m, c)) {
      if (m.at && m.buffer === '') return FAILURE;
      m.i -= Array.from(m.buffer).length + 1;
      m.buffer = '';
      m.state = 'host';
    } else m.buffer += c;
  };

  S.host = (m, c) => {
    const url = m.url;
    if (m.override && url.scheme === 'file') {
      m.i--;
      m.state = 'fileHost';
    } else if (c === ':' && !m.brackets) {
      if (m.buffer === '') return FAILURE;
      if (m.override === 'hostname') return RETURN;
      const parsed = h.parseHost(m.buffer, !m.special);
      if (parsed === null) return FAILURE;
      url.host = parsed;
      m.buffer = '';
      m.state = 'port';
    } else if (endOfAuthority(m, c)) {
      m.i--;
      if (m.special && m.buffer === '') return FAILURE;
      if (m.override && m.buffer === '' && (h.includesCredentials(url) || url.port !== null)) return RETURN;
      const parsed = h.parseHost(m.buffer, !m.special);
      if (parsed === null) return FAILURE;
      url.host = parsed;
      m.buffer = '';
      m.state = 'pathStart';
      if (m.override) return RETURN;
    } else {
      if (c === '[') m.brackets = true;
      if (c === ']') m.brackets = false;
      m.buffer += c;
    }
  };
  S.hostname = S.host;

  S.port = (m, c) => {
    const url = m.url;
    if (h.isDigit(c)) m.buffer += c;
    else if (endOfAuthority(m, c) || m.override) {
      if (m.buffer !== '') {
        const port = parseInt(m.buffer, 10);
        if (port > 65535) return FAILURE;
        url.port = port === h.defaultPort(url.scheme) ? null : port;
        m.buffer = '';
      } else if (m.override) return FAILURE;
      if (m.override) return RETURN;
      m.state = 'pathStart';
      m.i--;
    } else return FAILURE;
  };

  S.file = (m, c) => {
    const url = m.url;
    const base = m.base;
    url.scheme = 'file';
    url.host = '';
    if (c === '/' || c === '\\') {
      m.state = 'fileSlash';
    } else if (base && base.scheme === 'file') {
      url.host = base.host;
      url.path = base.path.slice();
      url.query = base.query;
      if (c === '?') {
        url.query = '';
        m.state = 'query';
      } else if (c === '#') {
        url.fragment = '';
        m.state = 'fragment';
      } else if (c !== undefined) {
        url.query = null;
        if (!h.startsWithDrive(m.cps, m.i)) h.shortenPath(url);
        else url.path = [];
        m.state = 'path';
        m.i--;
      }
    } else {
      m.state = 'path';
      m.i--;
    }
  };

  S.fileSlash = (m, c) => {
    const url = m.url;
    const base = m.base;
    if (c === '/' || c === '\\') {
      m.state = 'fileHost';
      return;
    }
    if (base && base.scheme === 'file') {
      url.host = base.host;
      if (!h.startsWithDrive(m.cps, m.i) && base.path.length > 0 && h.isNormalizedDrive(base.path[0])) {
        url.path.push(base.path[0]);
      }
    }
    m.state = 'path';
    m.i--;
  };

  S.fileHost = (m, c) => {
    const url = m.url;
    if (c === undefined || c === '/' || c === '\\' || c === '?' || c === '#') {
      m.i--;
      if (!m.override && h.isDriveLetter(m.buffer)) {
        m.state = 'path';
      } else if (m.buffer === '') {
        url.host = '';
        if (m.override) return RETURN;
        m.state = 'pathStart';
      } else {
        let parsed = h.parseHost(m.buffer, false);
        if (parsed === null) return FAILURE;
        if (parsed === 'localhost') parsed = '';
        url.host = parsed;
        if (m.override) return RETURN;
        m.buffer = '';
        m.state = 'pathStart';
      }
    } else m.buffer += c;
  };

  S.pathStart = (m, c) => {
    const url = m.url;
    if (m.special) {
      m.state = 'path';
      if (c !== '/' && c !== '\\') m.i--;
    } else if (!m.override && c === '?') {
      url.query = '';
      m.state = 'query';
    } else if (!m.override && c === '#') {
      url.fragment = '';
      m.state = 'fragment';
    } else if (c !== undefined) {
      m.state = 'path';
      if (c !== '/') m.i--;
    } else if (m.override && url.host === null) {
      url.path.push('');
    }
  };

  S.path = (m, c) => {
    const url = m.url;
    if (c === undefined || isSlash(m, c) || (!m.override && (c === '?' || c === '#'))) {
      const slash = isSlash(m, c);
      if (h.isDoubleDot(m.buffer)) {
        h.shortenPath(url);
        if (!slash) url.path.push('');
      } else if (h.isSingleDot(m.buffer) && !slash) {
        url.path.push('');
      } else if (!h.isSingleDot(m.buffer)) {
        if (url.scheme === 'file' && url.path.length === 0 && h.isDriveLetter(m.buffer)) {
          m.buffer = m.buffer[0] + ':';
        }
        url.path.push(m.buffer);
      }
      m.buffer = '';
      if (c === '?') {
        url.query = '';
        m.state = 'query';
      } else if (c === '#') {
        url.fragment = '';
        m.state = 'fragment';
      }
    } else {
      m.buffer += h.percentEncode(c, h.pathSet);
    }
  };

  S.opaquePath = (m, c) => {
    const url = m.url;
    if (c === '?') {
      url.query = '';
      m.state = 'query';
    } else if (c === '#') {
      url.fragment = '';
      m.state = 'fragment';
    } else if (c !== undefined) {
      url.path += h.percentEncode(c, h.inC0);
    }
  };

  S.query = (m, c) => {
    const url = m.url;
    if ((!m.override && c === '#') || c === undefined) {
      url.query += h.percentEncode(m.buffer, m.special ? h.specialQuerySet : h.querySet);
      m.buffer = '';
      if (c === '#') {
        url.fragment = '';
        m.state = 'fragment';
      }
    } else m.buffer += c;
  };

  S.fragment = (m, c) => {
    if (c !== undefined) m.url.fragment += h.percentEncode(c, h.fragmentSet);
  };

  return S;
};
