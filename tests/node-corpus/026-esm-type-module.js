// A .js file under "type": "module" is an ES module; this one is CJS.
import('./fixtures/esm/typed/mod.js').then((m) => {
  console.log(m.kind);
  console.log(typeof require);
});
