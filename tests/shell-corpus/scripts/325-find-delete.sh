# find -delete removes what it finds.
find . -name '*.log' | sort
find . -name '*.log' -delete
find . -name '*.log' | wc -l
ls data
