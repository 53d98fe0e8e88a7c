# echo x | node script: stdin from a pipe; node - reads the program from stdin.
echo 'piped text' | node fixtures/cjs/echo-stdin.js
printf 'console.log("program from stdin", 6 * 7)\n' | node -
echo 'console.log(require("path").join("x", "y"))' | node
