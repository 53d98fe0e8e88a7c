# Rename .js to .mjs and update imports.
find web/src -name '*.js' | sort | while read -r f; do mv "$f" "${f%.js}.mjs"; done
grep -rl "\.js'" web/src | xargs sed -i "s/\.js'/.mjs'/g"
find web/src -type f | sort
grep -rh "^import" web/src/app.mjs
