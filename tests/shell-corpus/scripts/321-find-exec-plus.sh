# -exec ... + batches files.
find web -name '*.js' -exec grep -l 'preact' {} + | sort
find crate -name '*.rs' -exec cat {} + | wc -l
