export default async function (input) {
  await new Promise((r) => setTimeout(r, 5));
  return [input, 1 + 1];
}
