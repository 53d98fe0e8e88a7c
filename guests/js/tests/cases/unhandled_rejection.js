Promise.reject(new TypeError("nope"));
setTimeout(() => console.log("never"), 10);
