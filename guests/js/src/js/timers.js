// node:timers: the global timer functions, and `promises` (node:timers/promises).
'use strict';

module.exports = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setImmediate: globalThis.setImmediate,
  clearImmediate: globalThis.clearImmediate,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
  // Deprecated in Node; kept so that old code which touches them does not break.
  _unrefActive(item) { if (item && typeof item.refresh === 'function') item.refresh(); },
  active(item) { if (item && typeof item.refresh === 'function') item.refresh(); },
  unenroll() { throw require('web').notSupported('timers.unenroll'); },
  enroll() { throw require('web').notSupported('timers.enroll'); },
  get promises() { return require('timers_promises'); },
};
