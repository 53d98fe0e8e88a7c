# Create a directory tree with brace expansion.
mkdir -p build/{debug,release}/{bin,lib}
touch build/{debug,release}/bin/app
find build | sort
