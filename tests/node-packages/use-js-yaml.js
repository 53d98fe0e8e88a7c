// js-yaml: load and dump, multiple documents, a schema error.
const yaml = require('js-yaml');
const doc = yaml.load(`
name: corpus
list:
  - one
  - two: 2
nested: { a: 1, b: [x, y] }
text: |
  line 1
  line 2
num: 0x1F
date: 2024-01-15
`);
console.log(JSON.stringify(doc));
console.log(yaml.dump({ a: 1, b: ['x', { c: null }], s: 'multi\nline', t: true }));
console.log(JSON.stringify(yaml.loadAll('--- 1\n--- [2]\n--- {k: v}\n')));
try {
  yaml.load('a: [unclosed');
} catch (e) {
  console.log(e.name, e.reason);
}
