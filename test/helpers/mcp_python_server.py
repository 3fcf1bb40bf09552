"""An MCP server of the official Python SDK (mcp 2.3, MCPServer), for test/handlers/control-python-sdk.test.ts and
test/engine/commands-mcp-sdks.test.ts (RemoteCommand through the engine: its run_command runs `sh -c` on this host).

usage: mcp_python_server.py PORT MODE
MODE: sse | sse-resumable | json | stateless-sse | stateless-json | auth
Every mode answers the 2026-07-28 revision as well (the SDK routes by MCP-Protocol-Version); the modes choose how
the 2025 transport answers: event streams or JSON, with sessions or stateless, resumable (an event store: a priming
event, and slow_echo closes its stream before answering), or behind OAuth (401/403 with resource metadata).
"""
import itertools
import sys

import anyio
import uvicorn
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.streamable_http import EventMessage, EventStore


class InMemoryEventStore(EventStore):
    """The SDK ships none: events kept in a list, replayed after an id for the stream it belongs to."""

    def __init__(self):
        self._events, self._ids = [], itertools.count(1)

    async def store_event(self, stream_id, message):
        eid = str(next(self._ids))
        self._events.append((eid, stream_id, message))
        return eid

    async def replay_events_after(self, last_event_id, send_callback):
        idx = next((i for i, e in enumerate(self._events) if e[0] == last_event_id), None)
        if idx is None:
            return None
        sid = self._events[idx][1]
        for eid, s, msg in self._events[idx + 1:]:
            if s == sid and msg is not None:
                await send_callback(EventMessage(msg, eid))
        return sid


port, mode = int(sys.argv[1]), sys.argv[2]
auth = {}
if mode == "auth":
    from mcp.server.auth.provider import AccessToken
    from mcp.server.auth.settings import AuthSettings

    class Verifier:
        async def verify_token(self, token):
            scopes = {"good-token": ["mcp:tools"], "narrow-token": ["mcp:read"]}.get(token)
            return AccessToken(token=token, client_id="pulumi-ops-test", scopes=scopes) if scopes is not None else None

    auth = dict(token_verifier=Verifier(), auth=AuthSettings(issuer_url="https://auth.bakery.example", resource_server_url=f"http://127.0.0.1:{port}/mcp", required_scopes=["mcp:tools"]))

mcp = MCPServer("echo-server", **auth)


@mcp.tool()
def echo(text: str) -> str:
    """Echo the input."""
    return text


@mcp.tool()
async def run_command(command: str) -> str:
    """Run a shell command on this host; a non-zero exit is a tool error carrying what it printed."""
    done = await anyio.run_process(["sh", "-c", command], check=False)
    printed = done.stdout.decode() + done.stderr.decode()
    if done.returncode != 0:
        raise ValueError(printed or f"exit status {done.returncode}")
    return printed


@mcp.tool()
async def slow_echo(text: str, ctx: Context) -> str:
    """Echo the input after closing the answer's stream (resumable servers only)."""
    await ctx.close_sse_stream()
    await anyio.sleep(0.3)
    return text


options = {
    "sse": dict(),
    "sse-resumable": dict(event_store=InMemoryEventStore(), retry_interval=100),
    "json": dict(json_response=True),
    "stateless-sse": dict(stateless_http=True),
    "stateless-json": dict(stateless_http=True, json_response=True),
    "auth": dict(),
}[mode]
uvicorn.run(mcp.streamable_http_app(**options), host="127.0.0.1", port=port, log_level="warning")
