import { Buffer } from "node:buffer";
const b = Buffer.from("héllo wörld");
console.log(b.length, b.toString(), b.toString("hex"), b.toString("base64"));
console.log(Buffer.from("68656c6c6f", "hex").toString(), Buffer.from("aGVsbG8=", "base64").toString("utf8"));
console.log(Buffer.from([1, 2, 3]), Buffer.alloc(3, 1), Buffer.alloc(4, "ab"));
console.log(Buffer.concat([Buffer.from("a"), Buffer.from("bc")]).toString(), Buffer.byteLength("é"), Buffer.isBuffer(b), Buffer.isBuffer(new Uint8Array(1)));
console.log(b.slice(0, 5).toString(), b.subarray(1, 3) instanceof Buffer, b.equals(Buffer.from("héllo wörld")));
console.log(Buffer.from("abc").toJSON(), JSON.stringify(Buffer.from("hi")));
console.log(b.indexOf("wörld"), b.includes("xyz"), Buffer.compare(Buffer.from("a"), Buffer.from("b")));
const n = Buffer.alloc(8);
n.writeUInt32LE(0xdeadbeef, 0);
n.writeInt16BE(-2, 4);
console.log(n.readUInt32LE(0).toString(16), n.readInt16BE(4), n);
console.log(new TextEncoder().encode("hé"), new TextDecoder().decode(new Uint8Array([104, 195, 169])));
console.log(btoa("hello"), atob("aGVsbG8="));
try {
  atob("***");
} catch (e) {
  console.log(e.name);
}
const orig = { d: new Date(0), m: new Map([[1, { a: [1] }]]), s: new Set([1]), u: new Uint8Array([9]), nested: { x: 1 } };
orig.self = orig;
const c = structuredClone(orig);
console.log(c !== orig, c.self === c, c.d.getTime(), c.m.get(1).a, c.s.has(1), c.u[0], c.nested !== orig.nested);
try {
  structuredClone(() => 1);
} catch (e) {
  console.log(e.name);
}
console.log(typeof crypto.randomUUID(), crypto.getRandomValues(new Uint8Array(4)).length);
const r = Math.random();
console.log(r >= 0 && r < 1, typeof Date.now());
