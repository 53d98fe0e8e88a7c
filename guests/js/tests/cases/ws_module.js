import { postComment, listIssues, echoArgs } from "ws:github";
import github from "ws:github";
console.log(postComment(7, "LGTM"));
console.log(await listIssues());
console.log(echoArgs(1, "two", { three: 3 }, [4]));
console.log(Object.keys(github));
for (const f of [() => github.failValue(7), () => github.rejectMe()]) {
  try {
    f();
  } catch (e) {
    console.log(e instanceof Error, e.code, e.message, JSON.stringify(e.value));
  }
}
