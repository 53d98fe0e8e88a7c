import fs from "node:fs";
const tries = {
  read: () => fs.readFileSync("missing.txt"),
  readAbs: () => fs.readFileSync("/missing/deep.txt", "utf8"),
  readDir: () => fs.readFileSync("dir"),
  mkdir: () => fs.mkdirSync("dir"),
  mkdirNoParent: () => fs.mkdirSync("x/y"),
  readdirFile: () => fs.readdirSync("file.txt"),
  rmdirNotEmpty: () => fs.rmdirSync("dir"),
  rmDirNoRecursive: () => fs.rmSync("dir"),
  unlinkDir: () => fs.unlinkSync("dir"),
  rename: () => fs.renameSync("nope", "other"),
  stat: () => fs.statSync("nope"),
  lstat: () => fs.lstatSync("nope"),
  access: () => fs.accessSync("nope"),
  readlink: () => fs.readlinkSync("file.txt"),
  symlink: () => fs.symlinkSync("x", "file.txt"),
  copyExcl: () => fs.copyFileSync("file.txt", "dir/inner.txt", fs.constants.COPYFILE_EXCL),
  writeIntoFile: () => fs.writeFileSync("file.txt/x", "y"),
};
for (const [name, f] of Object.entries(tries)) {
  try {
    f();
    console.log(name, "no error");
  } catch (e) {
    console.log(name, e.code, e.errno, e.syscall, JSON.stringify(e.path), e.message);
  }
}
console.log(fs.statSync("nope", { throwIfNoEntry: false }));
try {
  await fs.promises.readFile("nope");
} catch (e) {
  console.log("promise", e.code, e instanceof Error);
}
fs.readFileSync("missing-uncaught.txt");
