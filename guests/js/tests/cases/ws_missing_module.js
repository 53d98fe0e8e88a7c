import { x } from "ws:nope";
