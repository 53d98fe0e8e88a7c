const order = [];
setTimeout(() => order.push("timeout 20"), 20);
setTimeout(() => order.push("timeout 0"), 0);
setImmediate(() => order.push("immediate"));
queueMicrotask(() => order.push("microtask"));
process.nextTick(() => order.push("tick"));
Promise.resolve().then(() => order.push("promise"));
const t = setTimeout(() => order.push("cleared"), 5);
clearTimeout(t);
let n = 0;
const iv = setInterval(() => {
  order.push(`interval ${++n}`);
  if (n === 3) clearInterval(iv);
}, 2);
setTimeout((a, b) => {
  order.push(`args ${a} ${b}`);
}, 30, "x", "y");
setTimeout(() => console.log(order.join("\n")), 40);
