export default () => Promise.reject({ reason: 42 });
