# Comments, line continuations and semicolons.
echo one; echo two # trailing comment
echo three \
  four \
  five
ls docs \
  | grep guide \
  | wc -l
# echo this is a comment
echo "# not a comment"
