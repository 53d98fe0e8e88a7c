const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const all = Buffer.concat(chunks).toString();
console.log(Buffer.isBuffer(chunks[0]), all.trim().split("\n").length);
