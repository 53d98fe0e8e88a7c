# Replace a directory by extracting an archive over it.
tar -cf notes.tar notes
rm -r notes
ls -d notes 2>/dev/null || echo "notes gone"
tar -xf notes.tar
ls notes
rm notes.tar
