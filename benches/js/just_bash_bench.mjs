// Runs a script in just-bash (npm) over an in-memory copy of a host tree,
// the same script the shell backend and real bash run. Prints JSON timings.
// Usage: node just_bash_bench.mjs TREE_DIR SCRIPT TRIALS
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { Bash } from "just-bash";

const [root, script, trialsArg] = process.argv.slice(2);
const files = {};
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else files["/tree/" + relative(root, p)] = readFileSync(p, "utf8");
  }
})(root);

const times = [];
let stdout = "";
for (let i = 0; i < Number(trialsArg); i++) {
  // A fresh environment per trial, as each of our runs is fresh.
  const bash = new Bash({ files, cwd: "/tree" });
  const t = process.hrtime.bigint();
  const r = await bash.exec(script);
  times.push(Number(process.hrtime.bigint() - t) / 1e3);
  stdout = r.stdout;
  if (r.exitCode !== 0) {
    console.error(r.stderr);
    process.exit(1);
  }
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({ median_us: times[Math.floor(times.length / 2)], stdout_bytes: stdout.length, stdout }));
