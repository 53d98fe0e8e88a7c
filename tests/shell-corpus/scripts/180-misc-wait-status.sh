# wait returns the status of a background job.
(exit 3) &
wait $!
echo "job status: $?"
