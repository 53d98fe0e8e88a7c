export default (input = "none") => ({ input, global: typeof globalThis.input });
