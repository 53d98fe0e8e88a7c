"""Two execs through the official MCP Python SDK, each with a progress
callback (which makes the SDK send a `progressToken`): against a server
whose component cache is empty, the first compiles its guest and should
hear `notifications/progress`; the second finds it compiled.

Usage: progress.py COMPUTER_BIN WORKSPACE_DB BACKEND

Prints {"first": [messages...], "second": [messages...], "stdout": ...}.
"""

import json
import os
import sys

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


async def main(bin_path, db, backend):
    params = StdioServerParameters(
        command=bin_path,
        args=["--workspace", db, "mcp", "--backends", backend],
        env={k: v for k, v in os.environ.items() if k != "COMPUTER_WORKSPACE"},
    )
    seen = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            for which in ("first", "second"):
                heard = []

                async def on_progress(progress, total, message, heard=heard):
                    heard.append(message)

                r = await s.call_tool(
                    "exec",
                    {"command": "console.log('ran')", "backend": backend},
                    progress_callback=on_progress,
                )
                if r.is_error:
                    raise AssertionError(r.content[0].text)
                seen[which] = heard
                seen["stdout"] = r.structured_content["stdout"]
    print(json.dumps(seen))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    anyio.run(main, *sys.argv[1:])
