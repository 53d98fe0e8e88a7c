let data = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (d) => (data += d));
process.stdin.on("end", () => console.log("end:", JSON.stringify(data)));
