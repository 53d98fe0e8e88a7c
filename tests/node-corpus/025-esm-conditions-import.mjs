// "exports" conditions from import: the "import" branch wins.
import def, { format } from './fixtures/node_modules/cond-pkg/dist/index.mjs';
const viaPkg = await import('./fixtures/deep/a/b/esm-user.mjs');
console.log(format, def.format);
console.log(viaPkg.cond, viaPkg.esmOnly, viaPkg.answer);
