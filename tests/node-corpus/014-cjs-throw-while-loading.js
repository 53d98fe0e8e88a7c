// A module that throws is not cached: requiring it again throws again.
for (let i = 0; i < 2; i++) {
  try {
    require('./fixtures/cjs/throws');
  } catch (e) {
    console.log(i, e.message);
  }
}
const key = require.resolve('./fixtures/cjs/throws');
console.log('cached:', key in require.cache);
