// A non-string argument is ERR_INVALID_ARG_TYPE with node's message.
const path = require('path');
for (const bad of [42, null, undefined, {}]) {
  try {
    path.join('a', bad);
  } catch (e) {
    console.log(e.name, e.code, e.message);
  }
}
