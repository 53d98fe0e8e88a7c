// JSON files are parsed and cached like modules.
const cfg = require('./fixtures/cjs/config.json');
console.log(cfg.name, cfg.version, cfg.tags.join('+'), cfg.nested.ok);
cfg.version = 99;
console.log(require('./fixtures/cjs/config').version);
