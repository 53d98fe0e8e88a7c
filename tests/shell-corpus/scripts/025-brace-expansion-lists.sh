# Brace expansion of lists, nested and with prefixes.
echo {a,b,c}
echo file.{txt,md,rs}
echo {x,y}{1,2}
echo pre-{one,two{A,B},three}-post
echo {,un}do
echo "{not,expanded}" '{a,b}'
