// Sync file I/O: write, append, read as string and Buffer, stat, unlink.
const fs = require('fs');
const dir = 'scratch-030';
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir);
fs.writeFileSync(`${dir}/a.txt`, 'hello');
fs.appendFileSync(`${dir}/a.txt`, ' world\n');
console.log(JSON.stringify(fs.readFileSync(`${dir}/a.txt`, 'utf8')));
const buf = fs.readFileSync(`${dir}/a.txt`);
console.log(Buffer.isBuffer(buf), buf.length, buf[0]);
const st = fs.statSync(`${dir}/a.txt`);
console.log(st.isFile(), st.isDirectory(), st.size);
console.log(fs.existsSync(`${dir}/a.txt`), fs.existsSync(`${dir}/b.txt`));
fs.unlinkSync(`${dir}/a.txt`);
console.log(fs.existsSync(`${dir}/a.txt`));
fs.rmSync(dir, { recursive: true });
