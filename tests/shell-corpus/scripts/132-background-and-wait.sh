# Background jobs with wait; outputs go to separate files.
(echo alpha > job1.txt) &
(echo beta > job2.txt) &
wait
cat job1.txt job2.txt
rm job1.txt job2.txt
