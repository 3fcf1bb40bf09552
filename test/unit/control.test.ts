import { describe, expect, it } from "vitest";
import { encodeJpeg, encodePalettePng, encodePng } from "../../emulators/control/png";
import { rpcAnswer } from "../../provider/control/protocol";
import { blackShare, decodeImage } from "../../provider/control/image";

describe("MCP answers", () => {
  it("come as plain JSON or as an event stream whose last data line with our id holds the result", () => {
    expect(rpcAnswer('{"jsonrpc":"2.0","id":1,"result":{"ok":true}}', "application/json", 1)).toMatchObject({ result: { ok: true } });
    const stream =
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\nevent: message\ndata: {"jsonrpc":"2.0","id":7,"result":{"content":[]}}\n\n';
    expect(rpcAnswer(stream, "text/event-stream", 7)).toEqual({ jsonrpc: "2.0", id: 7, result: { content: [] } });
  });
});

describe("screenshots", () => {
  it.each([
    ["an RGB PNG", encodePng, "image/png"],
    ["an indexed PNG", encodePalettePng, "image/png"],
    ["a JPEG", encodeJpeg, "image/jpeg"],
  ] as const)("%s tells its size and how much of it is black", async (_what, encode, mimeType) => {
    const black = await decodeImage(
      encode(48, 16, () => [0, 0, 0]),
      mimeType,
    );
    const half = await decodeImage(
      encode(48, 16, (x) => (x < 24 ? [0, 0, 0] : [200, 200, 200])),
      mimeType,
    );
    expect(black).toMatchObject({ width: 48, height: 16, mimeType });
    expect(blackShare(black)).toBe(1);
    expect(blackShare(half)).toBeCloseTo(0.5, 1);
  });

  it("a kind it cannot read, or data that is not what its mimeType says, fails naming it", async () => {
    await expect(decodeImage(Buffer.from("GIF89a"), "image/gif")).rejects.toThrow(
      /the screenshot is image\/gif, which pulumi-ops does not read.*PNG or JPEG/,
    );
    await expect(decodeImage(Buffer.from("not a picture"), "image/png")).rejects.toThrow(/not a readable image\/png/);
    await expect(
      decodeImage(
        encodePng(4, 4, () => [1, 2, 3]),
        undefined,
      ),
    ).rejects.toThrow(/an image without a mimeType/);
  });
});
