import { describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { useEdge, zoneId } from "../helpers/edge";

const edge = useEdge();

const T = "edge:ZoneSetting";

describe("ZoneSetting against the edge emulator", () => {
  it("remembers the value found, sets the new one, reports drift and restores on delete", async () => {
    const { inputs } = await call(T, "check", [{}, { zoneName: "example.com", settingId: "ssl", value: "strict" }]);
    const { id, outs } = await call(T, "create", [inputs]);
    const z = edge.zones.get(zoneId(edge))!;
    expect(id).toBe(`${z.id}/ssl`);
    expect(outs).toMatchObject({ value: "strict", initialValue: "flexible" });
    expect(z.settings.ssl.value).toBe("strict");

    z.settings.ssl.value = "full";
    const read = await call(T, "read", [id, outs]);
    expect(read.inputs.value).toBe("full");
    expect((await call(T, "diff", [id, read.props, inputs])).changes).toBe(true);

    await call(T, "delete", [id, read.props]);
    expect(z.settings.ssl.value).toBe("flexible");
  });

  it("refuses a setting the plan does not allow changing, before changing anything", async () => {
    await expect(call(T, "create", [{ zoneName: "example.com", settingId: "http2", value: "off" }])).rejects.toThrow(/not editable/);
    expect(edge.count("PATCH")).toBe(0);
  });

  it("passes the API's refusal of an unknown setting through with its code", async () => {
    await expect(call(T, "create", [{ zoneName: "example.com", settingId: "no_such_setting", value: "on" }])).rejects.toThrow(/code 1006/);
  });
});
