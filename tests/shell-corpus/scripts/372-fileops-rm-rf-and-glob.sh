# rm -rf with globs.
rm -rf data/archive web/test
rm -f data/*.log
rm -f does-not-exist
find data web -maxdepth 1 | sort
