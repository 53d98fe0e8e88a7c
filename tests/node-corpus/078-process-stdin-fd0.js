// fs.readFileSync(0) reads the whole of stdin synchronously.
const fs = require('fs');
const text = fs.readFileSync(0, 'utf8');
console.log(text.toUpperCase().trim(), text.length);
