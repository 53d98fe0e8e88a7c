export default () => {
  const a = {};
  a.a = a;
  return a;
};
