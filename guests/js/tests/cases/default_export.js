export default (input) => ({ doubled: input.n * 2, name: input.name });
