import { y } from "./nope.js";
console.log(y);
