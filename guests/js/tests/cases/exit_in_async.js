export default async () => {
  console.log("exiting");
  setTimeout(() => console.log("never"), 1);
  process.exit(7);
};
