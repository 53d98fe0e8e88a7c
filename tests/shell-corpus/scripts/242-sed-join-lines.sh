# Join all lines with N.
sed ':a;N;$!ba;s/\n/, /g' notes/ideas.txt
sed -n 'N;s/\n/ | /p' data/hosts.txt
