import { add } from "./math.js"; export default () => add(10, 1);
