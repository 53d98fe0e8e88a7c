# Case conversion with tr and expansions.
s="Hello, World"
echo "$s" | tr '[:lower:]' '[:upper:]'
echo "$s" | tr '[:upper:]' '[:lower:]'
echo "$s" | tr -d '[:punct:]'
echo "$s" | tr -s 'l'
echo "$s" | tr 'a-zA-Z' 'n-za-mN-ZA-M'
