import { describe, expect, it } from "vitest";
import { encodePng } from "../../emulators/control/png";
import { rpcAnswer } from "../../provider/control/client";
import { blackShare, pngSize } from "../../provider/control/png";

describe("MCP answers", () => {
  it("come as plain JSON or as an event stream whose last data line with our id holds the result", () => {
    expect(rpcAnswer('{"jsonrpc":"2.0","id":1,"result":{"ok":true}}', "application/json", 1)).toMatchObject({ result: { ok: true } });
    const stream = 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\nevent: message\ndata: {"jsonrpc":"2.0","id":7,"result":{"content":[]}}\n\n';
    expect(rpcAnswer(stream, "text/event-stream", 7)).toEqual({ jsonrpc: "2.0", id: 7, result: { content: [] } });
  });
});

describe("screenshots", () => {
  it("tell their size and how much of them is black", () => {
    const black = encodePng(40, 20, () => [0, 0, 0]);
    const half = encodePng(40, 20, (x) => (x < 20 ? [0, 0, 0] : [200, 200, 200]));
    expect(pngSize(black)).toEqual({ width: 40, height: 20 });
    expect(blackShare(black)).toBe(1);
    expect(blackShare(half)).toBe(0.5);
  });
});
