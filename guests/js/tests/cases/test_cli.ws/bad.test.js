throw new Error("top")
