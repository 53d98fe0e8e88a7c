console.log(process.platform, process.argv, process.argv0);
console.log(process.env.GREETING, process.env.HOME, Object.keys(process.env).sort());
console.log(process.cwd());
process.chdir("sub");
console.log(process.cwd());
process.chdir("..");
console.log(process.cwd());
try {
  process.chdir("/nope");
} catch (e) {
  console.log(e.code, e.syscall, e.message);
}
const [s, ns] = process.hrtime();
console.log(typeof s, typeof ns, typeof process.hrtime.bigint(), typeof performance.now());
console.log(typeof input, input);
