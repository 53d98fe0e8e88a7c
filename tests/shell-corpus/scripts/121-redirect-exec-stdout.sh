# exec > redirects all later output.
exec 5>&1
exec > log.txt
echo "this goes to the log"
ls docs | wc -l
exec >&5
echo "restored"
cat log.txt
