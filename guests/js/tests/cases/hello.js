console.log("hello, world");
console.log("a", "b", 1, true, null, undefined);
console.error("to stderr");
console.warn("warned");
console.info("info");
console.debug("debug");
