# ${x^} ${x^^} ${x,} ${x,,} ${x~~}
w="hello World"
echo "${w^}"
echo "${w^^}"
echo "${w,}"
echo "${w,,}"
echo "${w^^[lo]}"
echo "${w~~}"
