// A falsy assert(expr) quotes the call from the caller's source file (here a
// workspace module), re-indenting continuation lines as node does.
import './ok.mjs';
