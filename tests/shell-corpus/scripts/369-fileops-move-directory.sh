# Move a directory into another.
mkdir archive
mv notes archive/
mv data/archive archive/data-archive
find archive | sort
