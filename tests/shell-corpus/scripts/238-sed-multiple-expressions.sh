# -e several times and ; separated commands.
sed -e 's/north/N/' -e 's/south/S/' -e 's/east/E/' -e 's/west/W/' data/products.tsv | cut -f1,5 | head -n 5
echo "a-b-c" | sed 's/-/+/; s/-/*/'
