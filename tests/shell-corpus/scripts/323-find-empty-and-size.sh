# -empty and -size (deterministic sizes only).
find . -empty | sort
find . -type f -size +10k | sort
find data -type f -size -1k | sort
