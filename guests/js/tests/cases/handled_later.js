const p = Promise.reject(new Error("handled"));
p.catch((e) => console.log("caught", e.message));
await new Promise((r) => setTimeout(r, 1));
console.log("done");
