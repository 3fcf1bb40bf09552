/**
 * A plain `pulumi up` after a killed one never doubles (issue 44, provider/create-journal.ts): a create notes itself
 * before it is sent and keeps the note until the engine shows the resource in state. A second create of the same
 * resource (what the engine calls after a kill, with no word of the first) finds the note and takes what the first
 * made: a page rule, a DNS record, a page post, a post; a command refuses to run again unless told to. Once the
 * engine has diffed or read the resource, or the create failed outright, the note is gone and a create makes anew.
 */
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ControlEmulator, PAGE_ID } from "../../emulators";
import { call } from "../../provider/door";
import { keepCreateJournal } from "../../provider/create-journal";
import { forgetClaims } from "../../provider/claims";
import { records, useEdge } from "../helpers/edge";
import { useSocial } from "../helpers/social";

const edge = useEdge();
const { pages, posts } = useSocial({ processingMs: 10 });
let control: ControlEmulator;
let home: string;

beforeAll(async () => {
  control = await new ControlEmulator().start();
  process.env.CONTROL_URL = control.url;
  home = mkdtempSync(path.join(tmpdir(), "pulumi-ops-journal-"));
  process.env.PULUMI_HOME = home;
  keepCreateJournal(true);
});
afterAll(async () => {
  keepCreateJournal(false);
  delete process.env.PULUMI_HOME;
  await control.stop();
});
beforeEach(() => forgetClaims());

const notes = () => readdirSync(path.join(home, "pulumi-ops", "creates")).length;

/** check then create, as the engine calls them, for resource `name` of stack site/prod. */
async function create(type: string, name: string, args: Record<string, unknown>) {
  const { inputs, failures } = await call(type, "check", [{}, { ...args, __owner: `site/prod/${name}` }]);
  expect(failures).toEqual([]);
  return call(type, "create", [inputs]);
}

const RULE = { zoneName: "example.com", targets: ["example.com/blog/*"], actions: [{ id: "cache_level", value: "cache_everything" }] };
const pageRules = () => edge.pageRulesOf!([...edge.zones.values()].find((z) => z.name === "example.com")!.id);

describe("a create sent again for a resource whose earlier create was never recorded", () => {
  it("a page rule: the second create takes the first's rule, nothing made twice; once diffed, a create makes anew", async () => {
    const first = await create("edge:PageRule", "blog", RULE);
    forgetClaims(); // a new run
    const again = await create("edge:PageRule", "blog", RULE);
    expect(again.id).toBe(first.id);
    expect(pageRules()).toHaveLength(1);
    // The engine recorded it (a diff of the resource): its note is gone, and another create is a new object.
    await call("edge:PageRule", "diff", [again.id, again.outs, { ...RULE, __owner: "site/prod/blog" }]);
    forgetClaims();
    const other = await create("edge:PageRule", "blog", RULE);
    expect(other.id).not.toBe(first.id);
    expect(pageRules()).toHaveLength(2);
  });

  it("a diff that replaces the resource keeps the note: the replacement's create, killed, is found by the next", async () => {
    const first = await create("edge:PageRule", "moved", RULE);
    await call("edge:PageRule", "diff", [first.id, first.outs, { ...RULE, zoneName: "example.org", __owner: "site/prod/moved" }]);
    forgetClaims();
    expect((await create("edge:PageRule", "moved", RULE)).id).toBe(first.id);
  });

  it("a DNS record, a page post and a post: each taken, one object each", async () => {
    const rec = { zoneName: "example.com", type: "A", name: "once", content: "203.0.113.9", ttl: 300 };
    const r1 = await create("edge:DnsRecord", "once", rec);
    const p1 = await create("pages:PagePost", "hello", { pageId: PAGE_ID, message: "Read our new blog" });
    const t1 = await create("posts:Post", "hello", { mediaType: "TEXT", text: "Read our new blog" });
    forgetClaims();
    expect((await create("edge:DnsRecord", "once", rec)).id).toBe(r1.id);
    expect((await create("pages:PagePost", "hello", { pageId: PAGE_ID, message: "Read our new blog" })).id).toBe(p1.id);
    expect((await create("posts:Post", "hello", { mediaType: "TEXT", text: "Read our new blog" })).id).toBe(t1.id);
    expect(records(edge).filter((r) => r.name.startsWith("once."))).toHaveLength(1);
    expect([...pages.posts.values()].filter((p) => p.message === "Read our new blog")).toHaveLength(1);
    expect([...posts.posts.values()].filter((p) => p.text === "Read our new blog")).toHaveLength(1);
  });

  it("a command is not run again blindly: refused naming the switch; with ops:controlRerunInterrupted it runs", async () => {
    const cmd = { create: "echo journal-test-ran", interpreter: "shell" };
    await create("control:RemoteCommand", "setup", cmd);
    const ran = () => control.calls.filter((c) => JSON.stringify(c.args).includes("journal-test-ran")).length;
    const before = ran();
    await expect(create("control:RemoteCommand", "setup", cmd)).rejects.toThrow(
      /create command was sent \(.*\) by an earlier run that never recorded its end.*check the host.*ops:controlRerunInterrupted/,
    );
    expect(ran()).toBe(before);
    // Refused, the note stays: the next run is refused too, until someone says so.
    await expect(create("control:RemoteCommand", "setup", cmd)).rejects.toThrow(/never recorded its end/);
    process.env.CONTROL_RERUN_INTERRUPTED = "true";
    try {
      await create("control:RemoteCommand", "setup", cmd);
    } finally {
      delete process.env.CONTROL_RERUN_INTERRUPTED;
    }
    expect(ran()).toBeGreaterThan(before);
  });

  it("a create that fails outright leaves no note: the next create is sent as any other", async () => {
    const before = notes();
    await expect(create("control:RemoteCommand", "fails", { create: "exit 3", interpreter: "shell" })).rejects.toThrow(/exit 3/);
    expect(notes()).toBe(before);
    await expect(create("control:RemoteCommand", "fails", { create: "exit 3", interpreter: "shell" })).rejects.toThrow(/exit 3/);
  });
});
