// Web platform globals as Node has them: DOMException, Event, CustomEvent,
// EventTarget, AbortController and AbortSignal. Also `notSupported`, the error every
// module throws for what the sandbox cannot do.
'use strict';

const kCustom = Symbol.for('nodejs.util.inspect.custom');

function notSupported(what) {
  const err = new Error(`${what} is not supported in the sandbox`);
  err.code = 'ERR_NOT_SUPPORTED_IN_SANDBOX';
  return err;
}

const CODES = [
  'IndexSizeError', 'DOMStringSizeError', 'HierarchyRequestError', 'WrongDocumentError',
  'InvalidCharacterError', 'NoDataAllowedError', 'NoModificationAllowedError', 'NotFoundError',
  'NotSupportedError', 'InUseAttributeError', 'InvalidStateError', 'SyntaxError',
  'InvalidModificationError', 'NamespaceError', 'InvalidAccessError', 'ValidationError',
  'TypeMismatchError', 'SecurityError', 'NetworkError', 'AbortError', 'URLMismatchError',
  'QuotaExceededError', 'TimeoutError', 'InvalidNodeTypeError', 'DataCloneError',
];
const CONSTANTS = [
  'INDEX_SIZE_ERR', 'DOMSTRING_SIZE_ERR', 'HIERARCHY_REQUEST_ERR', 'WRONG_DOCUMENT_ERR',
  'INVALID_CHARACTER_ERR', 'NO_DATA_ALLOWED_ERR', 'NO_MODIFICATION_ALLOWED_ERR', 'NOT_FOUND_ERR',
  'NOT_SUPPORTED_ERR', 'INUSE_ATTRIBUTE_ERR', 'INVALID_STATE_ERR', 'SYNTAX_ERR',
  'INVALID_MODIFICATION_ERR', 'NAMESPACE_ERR', 'INVALID_ACCESS_ERR', 'VALIDATION_ERR',
  'TYPE_MISMATCH_ERR', 'SECURITY_ERR', 'NETWORK_ERR', 'ABORT_ERR', 'URL_MISMATCH_ERR',
  'QUOTA_EXCEEDED_ERR', 'TIMEOUT_ERR', 'INVALID_NODE_TYPE_ERR', 'DATA_CLONE_ERR',
];

const kName = Symbol('name');

class DOMException extends Error {
  constructor(message = '', options = 'Error') {
    super(`${message}`);
    let name = options;
    if (options !== null && typeof options === 'object') {
      name = 'name' in options ? options.name : 'Error';
      if ('cause' in options) {
        Object.defineProperty(this, 'cause', { value: options.cause, writable: true, configurable: true, enumerable: false });
      }
    }
    Object.defineProperty(this, kName, { value: `${name}` });
  }
  get name() { return this[kName]; }
  get code() { return CODES.indexOf(this[kName]) + 1; }
  // Node prints the name next to the class: `DOMException [AbortError]: message`.
  [kCustom]() {
    const stack = typeof this.stack === 'string' ? this.stack.replace(/\n+$/, '') : '';
    const header = `DOMException [${this.name}]: ${this.message}`;
    return stack === '' ? header : `${header}\n${stack}`;
  }
}
CONSTANTS.forEach((c, i) => {
  Object.defineProperty(DOMException, c, { value: i + 1, enumerable: true });
  Object.defineProperty(DOMException.prototype, c, { value: i + 1, enumerable: true });
});
Object.defineProperty(DOMException.prototype, Symbol.toStringTag, { value: 'DOMException', configurable: true });

function argType(name, expected, value) {
  const err = new TypeError(`The "${name}" argument must be ${expected}. Received ${value === undefined ? 'undefined' : value === null ? 'null' : typeof value}`);
  err.code = 'ERR_INVALID_ARG_TYPE';
  return err;
}

const kStop = Symbol('stop');
class Event {
  #type;
  #cancelable;
  #bubbles;
  #composed;
  #defaultPrevented = false;
  #timeStamp = typeof performance !== 'undefined' ? performance.now() : 0;
  constructor(type, options = undefined) {
    if (arguments.length === 0) {
      const err = new TypeError('The "type" argument must be specified');
      err.code = 'ERR_MISSING_ARGS';
      throw err;
    }
    this.#type = `${type}`;
    this.#cancelable = Boolean(options && options.cancelable);
    this.#bubbles = Boolean(options && options.bubbles);
    this.#composed = Boolean(options && options.composed);
    Object.defineProperty(this, 'target', { value: null, writable: true, enumerable: false });
    Object.defineProperty(this, 'currentTarget', { value: null, writable: true, enumerable: false });
    Object.defineProperty(this, kStop, { value: false, writable: true, enumerable: false });
  }
  get type() { return this.#type; }
  get cancelable() { return this.#cancelable; }
  get bubbles() { return this.#bubbles; }
  get composed() { return this.#composed; }
  get defaultPrevented() { return this.#cancelable && this.#defaultPrevented; }
  get timeStamp() { return this.#timeStamp; }
  get isTrusted() { return false; }
  get eventPhase() { return this.currentTarget ? 2 : 0; }
  get srcElement() { return this.target; }
  get returnValue() { return !this.defaultPrevented; }
  get cancelBubble() { return this[kStop]; }
  set cancelBubble(v) { if (v) this[kStop] = true; }
  composedPath() { return this.currentTarget ? [this.currentTarget] : []; }
  preventDefault() { this.#defaultPrevented = true; }
  stopPropagation() {}
  stopImmediatePropagation() { this[kStop] = true; }
  [kCustom](depth) {
    const name = this.constructor.name;
    if (typeof depth === 'number' && depth < 0) return name;
    const ctor = { [name]: function () {} }[name];
    const obj = Object.create(ctor.prototype);
    obj.type = this.type;
    obj.defaultPrevented = this.defaultPrevented;
    obj.cancelable = this.cancelable;
    obj.timeStamp = this.timeStamp;
    return obj;
  }
}
Event.NONE = 0;
Event.CAPTURING_PHASE = 1;
Event.AT_TARGET = 2;
Event.BUBBLING_PHASE = 3;
Object.defineProperty(Event.prototype, Symbol.toStringTag, { value: 'Event', configurable: true });

class CustomEvent extends Event {
  #detail;
  constructor(type, options = undefined) {
    super(type, options);
    this.#detail = options && options.detail !== undefined ? options.detail : null;
  }
  get detail() { return this.#detail; }
}
Object.defineProperty(CustomEvent.prototype, Symbol.toStringTag, { value: 'CustomEvent', configurable: true });

const kListeners = Symbol('listeners');
class EventTarget {
  constructor() {
    Object.defineProperty(this, kListeners, { value: new Map() });
  }

  addEventListener(type, listener, options = undefined) {
    if (listener === null || listener === undefined) return;
    const opts = typeof options === 'boolean' ? { capture: options } : options || {};
    const capture = Boolean(opts.capture);
    const list = this[kListeners].get(`${type}`) || [];
    if (list.some((l) => l.listener === listener && l.capture === capture)) return;
    const entry = { listener, capture, once: Boolean(opts.once), removed: false };
    list.push(entry);
    this[kListeners].set(`${type}`, list);
    const signal = opts.signal;
    if (signal) {
      if (signal.aborted) {
        this.removeEventListener(type, listener, options);
        return;
      }
      signal.addEventListener('abort', () => this.removeEventListener(type, listener, options), { once: true });
    }
  }

  removeEventListener(type, listener, options = undefined) {
    const capture = typeof options === 'boolean' ? options : Boolean(options && options.capture);
    const list = this[kListeners].get(`${type}`);
    if (!list) return;
    const i = list.findIndex((l) => l.listener === listener && l.capture === capture);
    if (i !== -1) {
      list[i].removed = true;
      list.splice(i, 1);
    }
  }

  dispatchEvent(event) {
    if (!(event instanceof Event)) throw argType('event', 'an instance of Event', event);
    event.target = this;
    event.currentTarget = this;
    const list = (this[kListeners].get(event.type) || []).slice();
    for (const entry of list) {
      if (entry.removed) continue;
      if (entry.once) this.removeEventListener(event.type, entry.listener, { capture: entry.capture });
      try {
        const l = entry.listener;
        const result = typeof l === 'function' ? l.call(this, event) : l.handleEvent(event);
        if (result && typeof result.then === 'function') result.then(undefined, (e) => queueMicrotask(() => { throw e; }));
      } catch (e) {
        // As in Node: a throwing listener is an uncaught exception, after dispatch.
        queueMicrotask(() => { throw e; });
      }
      if (event[kStop]) break;
    }
    event.currentTarget = null;
    return !event.defaultPrevented;
  }
}
Object.defineProperty(EventTarget.prototype, Symbol.toStringTag, { value: 'EventTarget', configurable: true });

module.exports = { DOMException, Event, CustomEvent, EventTarget, notSupported, argType };
Object.assign(module.exports, require('abort'));
