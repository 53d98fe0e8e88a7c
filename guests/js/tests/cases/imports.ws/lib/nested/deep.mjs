import { add } from "../math.js"; export const deep = add(100, 0);
