// util.types and the deprecated-but-present util.is* helpers that remain.
const { types, isDeepStrictEqual } = require('util');
console.log(types.isPromise(Promise.resolve()), types.isPromise({ then() {} }));
console.log(types.isDate(new Date()), types.isRegExp(/x/), types.isMap(new Map()), types.isSet(new Set()));
console.log(types.isTypedArray(new Uint8Array()), types.isUint8Array(Buffer.alloc(1)), types.isArrayBuffer(new ArrayBuffer(1)));
console.log(types.isAsyncFunction(async () => {}), types.isGeneratorFunction(function* () {}), types.isNativeError(new RangeError()));
console.log(types.isBoxedPrimitive(Object(1)), types.isProxy(new Proxy({}, {})), types.isAnyArrayBuffer(new SharedArrayBuffer(1)));
console.log(isDeepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), isDeepStrictEqual([1], ['1']));
