# exit N.
echo "exiting with 5"
exit 5
