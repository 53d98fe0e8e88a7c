"""An MCP session against `computer serve` over streamable HTTP, through the
official MCP Python SDK's HTTP client: initialize, list the tools, exec,
read the file the exec wrote, read the approvals resource.

Usage: http_session.py URL TOKEN

Prints one JSON object of what it saw; exits non-zero, with the reason on
stderr, when a step fails (a refused connection included).
"""

import json
import sys

import anyio
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def structured(result):
    if result.is_error:
        return {"error": result.content[0].text}
    return result.structured_content


async def session(url, token):
    seen = {}
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with create_mcp_http_client(headers=headers) as client:
        async with streamable_http_client(url, http_client=client) as (read, write):
            async with ClientSession(read, write) as s:
                init = await s.initialize()
                seen["server"] = init.server_info.name
                tools = await s.list_tools()
                seen["tools"] = sorted(t.name for t in tools.tools)
                if "exec" in seen["tools"]:
                    ran = structured(
                        await s.call_tool(
                            "exec",
                            {"command": "printf 'over http\\n' > /mcp.txt; cat /mcp.txt"},
                        )
                    )
                    seen["exec"] = {k: ran.get(k) for k in ("status", "exitCode", "stdout", "error")}
                got = structured(await s.call_tool("read", {"path": "/mcp.txt"}))
                seen["read"] = got.get("content", got.get("error"))
                wrote = structured(
                    await s.call_tool("write", {"path": "/by-mcp.txt", "content": "x"})
                ) if "write" in seen["tools"] else None
                seen["write"] = wrote
                res = await s.read_resource("computer://approvals")
                seen["approvals"] = json.loads(res.contents[0].text)
    return seen


def main():
    url, token = sys.argv[1], sys.argv[2]
    seen = anyio.run(session, url, token)
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
