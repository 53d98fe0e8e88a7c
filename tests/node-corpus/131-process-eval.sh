# node -e runs code; node -p prints the value of the expression.
node -e 'console.log("from -e", 1 + 2)'
node -p '[1, 2, 3].map((x) => x * 2)'
node -p '"a string"'
node -p 'process.argv.length' extra args
node -e 'process.exit(5)'
echo "corpus: exit $?"
node -e 'console.log(typeof require, typeof module, __filename)'
