console.log("waiting forever");
await new Promise(() => {});
