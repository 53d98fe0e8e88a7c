process.exitCode = 4;
console.log("set");
