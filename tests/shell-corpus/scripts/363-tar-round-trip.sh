# tar a directory, extract it elsewhere, compare.
tar -cf docs.tar docs
tar -tf docs.tar | sort
mkdir restore
tar -xf docs.tar -C restore
diff -r docs restore/docs && echo "identical after extract"
rm -r restore docs.tar
