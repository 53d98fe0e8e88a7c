# find -name, sorted.
find . -name '*.rs' | sort
