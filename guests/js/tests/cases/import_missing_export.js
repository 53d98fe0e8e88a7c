import { nope } from "./lib.js";
console.log(nope);
