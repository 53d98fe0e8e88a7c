function inner() {
  throw new Error("boom");
}
console.log("before");
inner();
