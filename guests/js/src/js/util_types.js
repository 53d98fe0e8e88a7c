// util.types: brand checks by internal slots where JS can reach them (a method of
// the class that throws on a foreign receiver), else by the toStringTag.
'use strict';

const tag = (v) => Object.prototype.toString.call(v).slice(8, -1);
const isObject = (v) => v !== null && (typeof v === 'object' || typeof v === 'function');

function hasSlot(method, v) {
  if (!isObject(v)) return false;
  try {
    method.call(v);
    return true;
  } catch {
    return false;
  }
}

const typedArrayTag = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
const typedTag = (v) => (ArrayBuffer.isView(v) ? typedArrayTag.call(v) : undefined);
const size = (proto) => Object.getOwnPropertyDescriptor(proto, 'size').get;
const byteLength = (proto) => Object.getOwnPropertyDescriptor(proto, 'byteLength').get;
const AsyncFunction = (async () => {}).constructor;
const GeneratorFunction = function* () {}.constructor;
const AsyncGeneratorFunction = async function* () {}.constructor;
const mapIteratorProto = Object.getPrototypeOf(new Map().entries());
const setIteratorProto = Object.getPrototypeOf(new Set().values());
const generatorProto = GeneratorFunction.prototype.prototype;
const boxes = [Number, String, Boolean, BigInt, Symbol];

function unboxable(Box, v) {
  return isObject(v) && typeof v === 'object' && hasSlot(Box.prototype.valueOf, v);
}

const types = {
  isExternal: () => false,
  isDate: (v) => hasSlot(Date.prototype.getTime, v),
  isArgumentsObject: (v) => isObject(v) && tag(v) === 'Arguments',
  isBigIntObject: (v) => unboxable(BigInt, v),
  isBooleanObject: (v) => unboxable(Boolean, v),
  isNumberObject: (v) => unboxable(Number, v),
  isStringObject: (v) => unboxable(String, v),
  isSymbolObject: (v) => unboxable(Symbol, v),
  isNativeError: (v) => v instanceof Error || (isObject(v) && tag(v) === 'Error'),
  isRegExp: (v) => isObject(v) && hasSlot(Object.getOwnPropertyDescriptor(RegExp.prototype, 'source').get, v) && v !== RegExp.prototype,
  isAsyncFunction: (v) => v instanceof AsyncFunction || v instanceof AsyncGeneratorFunction,
  isGeneratorFunction: (v) => v instanceof GeneratorFunction || v instanceof AsyncGeneratorFunction,
  isGeneratorObject: (v) => isObject(v) && generatorProto.isPrototypeOf(v),
  isPromise: (v) => v instanceof Promise,
  isMap: (v) => hasSlot(size(Map.prototype), v),
  isSet: (v) => hasSlot(size(Set.prototype), v),
  isMapIterator: (v) => isObject(v) && Object.getPrototypeOf(v) === mapIteratorProto,
  isSetIterator: (v) => isObject(v) && Object.getPrototypeOf(v) === setIteratorProto,
  isWeakMap: (v) => hasSlot(function () { WeakMap.prototype.has.call(this, {}); }, v),
  isWeakSet: (v) => hasSlot(function () { WeakSet.prototype.has.call(this, {}); }, v),
  isArrayBuffer: (v) => hasSlot(byteLength(ArrayBuffer.prototype), v),
  isDataView: (v) => v instanceof DataView,
  isSharedArrayBuffer: (v) => typeof SharedArrayBuffer === 'function' && hasSlot(byteLength(SharedArrayBuffer.prototype), v),
  // A proxy cannot be told apart from its target in JS.
  isProxy: (v) => native.isProxy(v),
  isModuleNamespaceObject: (v) => isObject(v) && tag(v) === 'Module' && Object.getPrototypeOf(v) === null,
  isAnyArrayBuffer: (v) => types.isArrayBuffer(v) || types.isSharedArrayBuffer(v),
  isBoxedPrimitive: (v) => boxes.some((Box) => unboxable(Box, v)),
  isArrayBufferView: (v) => ArrayBuffer.isView(v),
  isTypedArray: (v) => typedTag(v) !== undefined,
  isKeyObject: () => false,
  isCryptoKey: () => false,
};
for (const name of ['Uint8Array', 'Uint8ClampedArray', 'Uint16Array', 'Uint32Array', 'Int8Array', 'Int16Array', 'Int32Array',
  'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array']) {
  types[`is${name}`] = (v) => typedTag(v) === name;
}

module.exports = { types };
