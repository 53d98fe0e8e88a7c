// exec with a callback: stdout and the error of a non-zero exit.
const { exec } = require('child_process');
exec('echo one; echo two', (err, stdout, stderr) => {
  console.log('first', err, JSON.stringify(stdout), JSON.stringify(stderr));
  exec("sh -c 'exit 3'", (err2) => {
    console.log('second', err2.code, err2.killed, err2.cmd);
  });
});
