# Summarise an error log by level and component.
echo "by level:"
awk '{ print $2 }' data/error.log | sort | uniq -c | sort -k1,1nr
echo "errors by message:"
grep ' ERROR ' data/error.log | cut -d']' -f2- | sed 's/^ //' | sort | uniq -c | sort -k1,1nr -k2
