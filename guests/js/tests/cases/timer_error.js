setTimeout(() => {
  console.log("in timer");
  throw new RangeError("from timer");
}, 1);
setTimeout(() => console.log("never"), 50);
