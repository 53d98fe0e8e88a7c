# $() and backticks.
n=$(ls docs | wc -l)
echo "docs entries: $n"
echo "files in web/src: `ls web/src | wc -l`"
lines=$(printf 'a\nb\n\n\n')
echo "[$lines]"
