console.log("start");
try {
  process.exit(3);
} catch (e) {
  console.log("caught", e);
} finally {
  console.log("finally");
}
console.log("not reached");
