# Rename files with find -exec sh -c.
find web/test -name '*.test.js' -exec sh -c 'mv "$1" "${1%.test.js}.spec.js"' _ {} \;
find web/test | sort
