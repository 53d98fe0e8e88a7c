const v = await Promise.resolve(5);
console.log("tla", v);
await new Promise((r) => setTimeout(r, 1));
console.log("after timer");
