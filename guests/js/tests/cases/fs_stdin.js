import fs from "node:fs";
const text = fs.readFileSync(0, "utf8");
console.log(JSON.stringify(text));
console.log(fs.readFileSync("/dev/stdin", "utf8") === "");
