# Edit many files through find -exec.
find web/src -name '*.js' -exec sed -i "s/from 'preact'/from 'preact\/compat'/" {} +
grep -rh "preact/compat" web/src | sort | uniq -c
