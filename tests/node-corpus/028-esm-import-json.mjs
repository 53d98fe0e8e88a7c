// JSON through createRequire, and fs + JSON.parse (import attributes vary by version).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const cfg = JSON.parse(readFileSync(new URL('./fixtures/cjs/config.json', import.meta.url), 'utf8'));
const req = createRequire(import.meta.url);
console.log(cfg.tags.length, req('./fixtures/cjs/config.json').nested.ok);
