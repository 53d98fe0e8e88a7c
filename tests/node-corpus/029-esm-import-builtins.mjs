// Built-ins as ES modules: default and named exports agree.
import fs, { readFileSync } from 'fs';
import path, { join } from 'node:path';
import { EventEmitter } from 'node:events';
import events from 'events';
import * as os from 'node:os';
console.log(fs.readFileSync === readFileSync, path.join === join);
console.log(events === EventEmitter, typeof os.EOL, typeof os.default);
console.log(join('a', 'b'));
