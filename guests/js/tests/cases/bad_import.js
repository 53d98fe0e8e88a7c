import x from "lodash";
console.log(x);
