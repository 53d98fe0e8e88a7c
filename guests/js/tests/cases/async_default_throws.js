export default async () => {
  await null;
  throw new Error("async failure");
};
