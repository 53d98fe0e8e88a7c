// csv-parse (sync API): headers, quoting, casting, delimiters.
const { parse } = require('csv-parse/sync');
const input = 'name,age,quote\nada,36,"said ""hi"", twice"\nbob,24,plain\n';
console.log(JSON.stringify(parse(input, { columns: true })));
console.log(JSON.stringify(parse(input, { columns: true, cast: true })));
console.log(JSON.stringify(parse('a;b\n1;2\n', { delimiter: ';' })));
console.log(JSON.stringify(parse('x,y\n\n1,2\n', { skip_empty_lines: true, from_line: 2 })));
try {
  parse('a,b\n1,2,3\n');
} catch (e) {
  console.log(e.code);
}
