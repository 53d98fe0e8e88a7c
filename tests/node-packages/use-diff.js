// diff: line, word and char diffs, and a unified patch applied back.
const Diff = require('diff');
const a = 'one\ntwo\nthree\n';
const b = 'one\n2\nthree\nfour\n';
console.log(JSON.stringify(Diff.diffLines(a, b).map((p) => [p.added ? '+' : p.removed ? '-' : ' ', p.value])));
console.log(JSON.stringify(Diff.diffWords('the quick fox', 'the slow fox').map((p) => [p.added, p.removed, p.value])));
console.log(Diff.diffChars('kitten', 'sitting').map((p) => (p.added ? `+${p.value}` : p.removed ? `-${p.value}` : p.value)).join('|'));
const patch = Diff.createTwoFilesPatch('a.txt', 'b.txt', a, b, 'old', 'new');
console.log(patch);
console.log(Diff.applyPatch(a, patch) === b);
