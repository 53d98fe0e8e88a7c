export default { answer: 42, list: [1, "a", null] };
