import { foo } from "ws:github";
foo();
