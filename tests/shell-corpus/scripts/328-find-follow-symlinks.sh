# -L follows symlinks.
find current -name '*.json' | sort
find -L current -name '*.json' | sort
find -L docs -type l | wc -l
