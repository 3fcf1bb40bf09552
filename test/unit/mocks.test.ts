/** Registration shape through pulumi.runtime.setMocks: type tokens, inputs passed on, outputs exposed. */
import { inspect } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";

const registered: pulumi.runtime.MockResourceArgs[] = [];
beforeAll(() => {
  pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push(args);
        return { id: `${args.name}-id`, state: { ...args.inputs, hostname: "www.example.com", zoneId: "z1" } };
      },
      call: () => ({}),
    },
    "project",
    "stack",
    false,
  );
});

function value<T>(o: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => o.apply((v) => resolve(v)));
}

describe("sdk resources under mocks", () => {
  it("registers ops.edge.DnsRecord as a dynamic resource with its module and type", async () => {
    const ops = await import("../../sdk");
    const r = new ops.edge.DnsRecord("www", { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.1" });
    expect(await value(r.hostname)).toBe("www.example.com");
    expect(await value(r.zoneId)).toBe("z1");
    const reg = registered.find((x) => x.name === "www")!;
    expect(reg.type).toBe("pulumi-nodejs:dynamic/edge:DnsRecord");
    expect(reg.inputs).toMatchObject({ zoneName: "example.com", type: "A", name: "www", content: "203.0.113.1" });
    expect(typeof reg.inputs.__provider).toBe("string");
  });

  it("registers ops.edge.ZoneSetting, and get() registers a read of an existing id", async () => {
    const ops = await import("../../sdk");
    const ssl = new ops.edge.ZoneSetting("ssl", { zoneName: "example.com", settingId: "ssl", value: "strict" });
    expect(await value(ssl.value)).toBe("strict");
    expect(registered.find((x) => x.name === "ssl")?.type).toBe("pulumi-nodejs:dynamic/edge:ZoneSetting");
    const got = ops.edge.DnsRecord.get("existing", "z1/r1");
    await value(got.id);
    expect(registered.find((x) => x.name === "existing")).toMatchObject({ id: "z1/r1", type: "pulumi-nodejs:dynamic/edge:DnsRecord" });
  });

  it("a RemoteCommand's secret given as text reaches check as given (which refuses it), never read as false", async () => {
    const ops = await import("../../sdk");
    const { call } = await import("../../provider/door");
    new ops.control.RemoteCommand("typo", { create: "echo hi", secret: "yes" as unknown as boolean });
    // Registered once its inputs settle (the program-side check first): waited for, however busy the machine.
    for (let i = 0; i < 200 && !registered.some((x) => x.name === "typo"); i++) await new Promise((r) => setTimeout(r, 25));
    const reg = registered.find((x) => x.name === "typo")!;
    expect(reg.inputs.secret).toBe("yes");
    const { failures } = await call("control:RemoteCommand", "check", [{}, { ...reg.inputs, __provider: undefined }]);
    expect(failures).toEqual([{ property: "secret", reason: "secret must be true or false, not text" }]);
  });
});

describe("the import option on the dynamic door", () => {
  it("is refused naming what works for the type: adopt where it has it, get and the plugin's import where there is an id", async () => {
    const ops = await import("../../sdk");
    const refusal = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return String((e as Error).message);
      }
      return "not refused";
    };
    const script = refusal(() => new ops.edge.WorkerScript("s", { name: "hello", content: "x" }, { import: "acct/hello" }));
    expect(script).toMatch(
      /Declare it with `adopt: true`.*ops\.edge\.WorkerScript\.get\("s", "acct\/hello"\).*pulumi import ops:edge:WorkerScript s <id>/,
    );
    const post = refusal(() => new ops.posts.Post("p", { mediaType: "TEXT", text: "hi" }, { import: "123" }));
    expect(post).toMatch(/Declare it, or read it without managing it with `ops\.posts\.Post\.get\("p", "123"\)`/);
    const set = refusal(() => new ops.edge.DnsRecordSet("hosts", { zoneName: "example.com", records: {} }, { import: "z" }));
    expect(set).toMatch(/Declare it with `adopt: true` to take the existing object over: .*nothing to import/);
    expect(set).not.toMatch(/\.get\(|pulumi import/);
    const command = refusal(() => new ops.control.RemoteCommand("c", { create: "true" }, { import: "c" }));
    expect(command).toMatch(/\. Declare it: .*nothing to import/);
    expect(command).not.toMatch(/adopt|\.get\(|pulumi import/);
  });
});

describe("a function that fails in a program", () => {
  it("throws a RunError whose stack is its one line: the runtime's colour inspect of it cannot loop (nodejs/node#64011)", async () => {
    // The built package, as a program loads it: the function loads the provider's modules with require.
    const ops = await import("../../dist/sdk");
    const failed = await ops.edge.getZone({ name: "" }).then(
      () => new Error("not failed"),
      (e: unknown) => e as Error,
    );
    expect(pulumi.RunError.isInstance(failed)).toBe(true);
    expect(failed.message).toMatch(/^edge: getZone: name: /);
    expect(failed.stack).toBe(failed.message);
    // What the runtime's uncaught handler does with every program error; a frame ending in
    // `node_modules/@pulumi/output.ts` would make this throw RangeError after tens of seconds.
    expect(inspect(failed, { colors: true })).toContain(failed.message);
  });
});
