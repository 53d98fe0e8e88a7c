import "./bad.js";
