// The part of Intl that packages reach for without asking for a locale: QuickJS has no
// Intl at all. `Intl.Segmenter` with `granularity: 'grapheme'` (the default) splits text
// into extended grapheme clusters by the common rules (combining marks, ZWJ sequences,
// variation selectors, emoji modifiers, regional-indicator pairs, CR LF, Hangul jamo
// are not joined); 'word' and 'sentence' throw ERR_NOT_SUPPORTED_IN_SANDBOX. Other
// Intl constructors are absent, as they would be in a build of node without ICU.
'use strict';

const EXTEND = /[\p{M}\u200d\ufe00-\ufe0f\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]/u;
const REGIONAL = /[\u{1f1e6}-\u{1f1ff}]/u;

function* graphemes(text) {
  let index = 0;
  const chars = Array.from(text);
  let i = 0;
  while (i < chars.length) {
    let segment = chars[i++];
    if (segment === '\r' && chars[i] === '\n') segment += chars[i++];
    else if (REGIONAL.test(segment) && i < chars.length && REGIONAL.test(chars[i])) segment += chars[i++];
    for (;;) {
      if (i < chars.length && EXTEND.test(chars[i])) {
        const joiner = chars[i] === '\u200d';
        segment += chars[i++];
        if (joiner && i < chars.length) segment += chars[i++];
        continue;
      }
      break;
    }
    yield { segment, index, input: text };
    index += segment.length;
  }
}

class Segmenter {
  constructor(locales, options = {}) {
    const granularity = options.granularity || 'grapheme';
    if (granularity !== 'grapheme') {
      const err = new Error(`ERR_NOT_SUPPORTED_IN_SANDBOX: Intl.Segmenter granularity '${granularity}' is not available (QuickJS has no ICU); only 'grapheme' is`);
      err.code = 'ERR_NOT_SUPPORTED_IN_SANDBOX';
      throw err;
    }
    this._granularity = granularity;
  }
  segment(text) {
    const input = String(text);
    return {
      [Symbol.iterator]: () => graphemes(input),
      containing(at = 0) {
        for (const s of graphemes(input)) if (at >= s.index && at < s.index + s.segment.length) return s;
        return undefined;
      },
    };
  }
  resolvedOptions() { return { locale: 'en-US', granularity: this._granularity }; }
  static supportedLocalesOf() { return ['en-US']; }
}

module.exports = { Segmenter };
