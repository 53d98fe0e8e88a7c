"""An MCP session against `computer mcp` through the official MCP Python SDK
(`mcp` on PyPI), as a newcomer's client would run it: list the tools, run an
exec, read a file, then go away while a long exec runs.

Usage: session.py COMPUTER_BIN WORKSPACE_DB MARKER

The long exec appends one line to MARKER (a workspace path) and then sleeps;
the client leaves as soon as the line is there. What happened to the run is
for the caller to check (through the CLI). Prints one JSON object of what it
saw; exits non-zero, with the reason on stderr, when a step fails.
"""

import json
import os
import sys

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


class Leave(Exception):
    """Raised to leave the session while the long exec still runs."""


def structured(result):
    if result.is_error:
        raise AssertionError(f"tool error: {result.content[0].text}")
    return result.structured_content


async def session(bin_path, db, marker):
    params = StdioServerParameters(
        command=bin_path,
        args=["--workspace", db, "mcp"],
        env={k: v for k, v in os.environ.items() if k != "COMPUTER_WORKSPACE"},
    )
    seen = {}
    try:
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as s:
                init = await s.initialize()
                seen["server"] = init.server_info.name
                tools = await s.list_tools()
                seen["tools"] = sorted(t.name for t in tools.tools)

                ran = structured(
                    await s.call_tool(
                        "exec", {"command": "printf 'hi\\n' > /hello.txt; cat /hello.txt"}
                    )
                )
                seen["exec"] = {k: ran[k] for k in ("status", "exitCode", "stdout")}
                got = structured(await s.call_tool("read", {"path": "/hello.txt"}))
                seen["read"] = got["content"]

                long_exec = f"echo once >> {marker}; sleep 120; echo late >> {marker}"
                async with anyio.create_task_group() as tg:
                    async def run_long():
                        await s.call_tool("exec", {"command": long_exec, "timeoutMs": 300000})

                    tg.start_soon(run_long)
                    with anyio.fail_after(120):
                        while True:
                            probe = await s.call_tool("read", {"path": marker})
                            if not probe.is_error and "once" in probe.structured_content["content"]:
                                break
                            await anyio.sleep(0.2)
                    seen["long_exec_started"] = True
                    raise Leave()
    except* Leave:
        pass
    print(json.dumps(seen))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    anyio.run(session, *sys.argv[1:])
