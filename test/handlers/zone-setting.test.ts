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

  it("at preview, one listing of the zone's settings refuses a setting it does not name and one it cannot change, with nothing sent (issue 57)", async () => {
    const { forgetPreviewChecks, previewCheck } = await import("../../provider/preflight");
    forgetPreviewChecks();
    edge.log.splice(0);
    await expect(previewCheck(T, undefined, { zoneName: "example.com", settingId: "binary_ast", value: "on" })).rejects.toThrow(
      /zone example\.com has no setting binary_ast \(its settings listing names \d+ others\).*Remove this ZoneSetting/,
    );
    await expect(previewCheck(T, undefined, { zoneName: "example.com", settingId: "http2", value: "off" })).rejects.toThrow(
      /zone setting http2 is not editable on example\.com/,
    );
    await previewCheck(T, undefined, { zoneName: "example.com", settingId: "early_hints", value: "on" });
    expect(edge.count("GET", /\/settings$/)).toBe(1);
    forgetPreviewChecks(); // another run
    await previewCheck(T, undefined, { zoneName: "example.com", settingId: "http2", value: "on" }); // as it is: nothing to change
    expect(edge.log.filter((e) => e.method !== "GET")).toEqual([]);
  });

  it("the emulator lists every setting the official SDK types, as the service's listing does", async () => {
    const { SETTING_IDS } = await import("../../provider/edge/zone-setting/known");
    const res = await fetch(`${edge.url}/client/v4/zones/${zoneId(edge)}/settings`, {
      headers: { authorization: `Bearer ${(await import("../../emulators")).DEMO_TOKEN}` },
    });
    expect((((await res.json()) as any).result as { id: string }[]).map((x) => x.id).sort()).toEqual([...SETTING_IDS].sort());
  });

  it("refuses a mistyped setting id at check, naming the nearest one, and a value of the wrong type", async () => {
    const typo = await call(T, "check", [{}, { zoneName: "example.com", settingId: "always_use_http", value: "on" }]);
    expect(typo.failures).toEqual([
      { property: "settingId", reason: "always_use_http is not a zone setting the service has: did you mean always_use_https?" },
    ]);
    const text = await call(T, "check", [{}, { zoneName: "example.com", settingId: "browser_cache_ttl", value: "3600" }]);
    expect(text.failures).toEqual([{ property: "value", reason: 'browser_cache_ttl takes a number such as 14400; got "3600"' }]);
    expect(edge.log).toEqual([]);
  });

  it("refuses at check a value the service refuses (its documented values, numbers included), and sends every one it takes", async () => {
    const ttl = await call(T, "check", [{}, { zoneName: "example.com", settingId: "browser_cache_ttl", value: 7 }]);
    expect(ttl.failures).toEqual([
      {
        property: "value",
        reason: expect.stringMatching(
          /^browser_cache_ttl must be one of 0, 30, 60, 120, .* 31536000 \(seconds or megabytes, as the setting counts\); got 7$/,
        ),
      },
    ]);
    const upload = await call(T, "check", [{}, { zoneName: "example.com", settingId: "max_upload", value: 600 }]);
    expect(upload.failures[0].reason).toMatch(/^max_upload must be one of 100, 125, .* 500, 1000/);
    const polish = await call(T, "check", [{}, { zoneName: "example.com", settingId: "polish", value: "lossy-ish" }]);
    expect(polish.failures).toEqual([{ property: "value", reason: 'polish must be one of off, lossless, lossy; got "lossy-ish"' }]);
    expect(edge.log).toEqual([]);
    // Every value the check lets through for a setting the emulator holds, the service (emulator) takes.
    const { ALLOWED_VALUES } = await import("../../provider/edge/zone-setting/known");
    for (const id of ["browser_cache_ttl", "challenge_ttl", "max_upload", "cache_level", "ssl", "security_level"]) {
      for (const value of ALLOWED_VALUES[id]) {
        const { inputs, failures } = await call(T, "check", [{}, { zoneName: "example.com", settingId: id, value }]);
        expect(failures).toEqual([]);
        const made = await call(T, "create", [inputs]);
        expect(made.outs.value).toEqual(value);
        await call(T, "delete", [made.id, made.outs]);
      }
    }
  });

  it("keeps values of their own type: a number and an object set, read back with no drift, and restored on delete", async () => {
    const ttl = (await call(T, "check", [{}, { zoneName: "example.com", settingId: "browser_cache_ttl", value: 3600 }])).inputs;
    const made = await call(T, "create", [ttl]);
    expect(made.outs).toMatchObject({ value: 3600, initialValue: 14400 });
    const z = edge.zones.get(zoneId(edge))!;
    expect(z.settings.browser_cache_ttl.value).toBe(3600);
    const hsts = {
      strict_transport_security: { enabled: true, max_age: 31536000, include_subdomains: true, preload: false, nosniff: true },
    };
    const header = (await call(T, "check", [{}, { zoneName: "example.com", settingId: "security_header", value: hsts }])).inputs;
    const h = await call(T, "create", [header]);
    const read = await call(T, "read", [h.id, h.outs]);
    expect(read.inputs).toBeUndefined();
    expect(read.props.value).toEqual(hsts);
    expect((await call(T, "diff", [h.id, read.props, header])).changes).toBe(false);
    await call(T, "delete", [h.id, read.props]);
    await call(T, "delete", [made.id, made.outs]);
    expect(z.settings.browser_cache_ttl.value).toBe(14400);
    expect((z.settings.security_header.value as any).strict_transport_security.enabled).toBe(false);
  });
});
