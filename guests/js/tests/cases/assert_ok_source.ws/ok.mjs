import assert from 'node:assert';
try { assert.ok(false); } catch (e) { console.log(JSON.stringify(e.message)); }
try { assert(1 === 2); } catch (e) { console.log(JSON.stringify(e.message)); }
const f = () => assert.ok(null);
try { f(); } catch (e) { console.log(JSON.stringify(e.message)); }
function g() {
  assert.ok(typeof 123 === 'string',
  );
}
try { g(); } catch (e) { console.log(JSON.stringify(e.message)); }
try { assert.ok(); } catch (e) { console.log(JSON.stringify(e.message)); }
try {
  assert.ok([].length > 0 &&
            true);
} catch (e) { console.log(JSON.stringify(e.message)); }
import { ok, strict } from 'node:assert';
try { ok(0); } catch (e) { console.log(JSON.stringify(e.message)); }
try { strict.equal(1, 1); strict(''); } catch (e) { console.log(JSON.stringify(e.message)); }
