/**
 * What a reviewer reads in a pull request (issue 58), through the real engine and the example pipeline's comment
 * (examples/ci/report.mjs), on test/programs/review: a page role's tasks changed, one TXT record of a set of 50
 * changed, two page rules, and a page post naming a record made in the same pull request. The preview job of the
 * example pipeline is run as its README says (`pipeline.sh preview`); its output (`preview.txt`, the CLI's
 * `preview --diff` with standard error) and its comment (`preview.md`) are read as a reviewer would:
 * - the tasks as values added and removed, nothing by position;
 * - exactly the changed record, as a zone-file line, with no escaping;
 * - the page rules' deprecation once, as the CLI's warning and under the comment's warnings, not in its changes;
 * - the post's whole text, the new record's hostname in it;
 * - twenty records taken over counted as such, with the writes they need (none);
 * - six resources' mistakes in one preview job, each naming its resource and field.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOKEN, EdgeEmulator, PagesEmulator, PAGES_USER_TOKEN } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

let edge: EdgeEmulator, pages: PagesEmulator;
let engine: EngineStack;
const PAGE = "200000000001030";
const writes = () =>
  [...edge.log, ...pages.log].filter(
    (e) => !["GET", "HEAD"].includes(e.method) && !e.path.startsWith("/__") && !/^\/v\d+\.\d+\/$/.test(e.path),
  );

/** The example pipeline's preview job, run as its README says (examples/ci/pipeline.sh preview): its output and comment. */
async function reviewed(): Promise<{ cli: string; comment: string; status: number }> {
  const env = { ...engine.cli.env, PULUMI_STACK: "review", PULUMI_PROGRAM_DIR: engine.cli.cwd, PIPELINE_COMMIT: "0123456789abcdef" };
  const run = await promisify(execFile)("bash", [path.join(ROOT, "examples/ci/pipeline.sh"), "preview"], { cwd: engine.scratch, env }).then(
    () => 0,
    (e: { code: number }) => e.code,
  );
  return {
    cli: readFileSync(path.join(engine.scratch, "preview.txt"), "utf8"),
    comment: readFileSync(path.join(engine.scratch, "preview.md"), "utf8"),
    status: run,
  };
}

beforeAll(async () => {
  withoutEnvFallback();
  edge = await new EdgeEmulator().start();
  pages = await new PagesEmulator({ extraPages: 30 }).start();
  engine = await engineStack(
    path.join(ROOT, "test/programs/review"),
    {
      "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
      "ops:edgeBaseUrl": { value: edge.url },
      "review:pageId": { value: PAGE },
      "review:tasks": { value: JSON.stringify(["MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"]) },
    },
    "review",
    { FACEBOOK_PAGE_ACCESS_TOKEN: PAGES_USER_TOKEN, PAGES_BASE_URL: pages.url, PULUMI_OPS_QUIET: "0" },
  );
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await edge?.stop();
  await pages?.stop();
});

describe("a pull request's preview, as a reviewer reads it", { timeout: 300_000 }, () => {
  it("shows a set's change as values added and removed, one changed record as its line, each warning once among the warnings, and a text built from a new record whole", async () => {
    await engine.stack.up();
    await engine.stack.setAllConfig({
      "review:tasks": { value: JSON.stringify(["CREATE_CONTENT", "MODERATE", "ANALYZE"]) },
      "review:dmarc": { value: "reject" },
      "review:launch": { value: "true" },
    });
    edge.log.length = 0;
    pages.log.length = 0;
    const { cli, comment } = await reviewed();
    expect(writes()).toEqual([]);
    const changes = /```diff\n([\s\S]*?)```/.exec(comment)?.[1] ?? "";
    const summary = comment.slice(0, comment.indexOf("```diff"));
    expect(summary).toMatch(/\+ 2 to create · ~ 2 to update · 4 changes\. 3 unchanged\s*$/); // the CLI's counts, nothing else
    const warnings = comment.slice(comment.indexOf("Warnings and errors:"));
    // The CLI's changes (up to its counts; its diagnostics follow them) and the comment's.
    for (const shown of [cli.slice(0, cli.indexOf("\nResources:")), changes]) {
      // The tasks: +CREATE_CONTENT -MESSAGING -ADVERTISE, and nothing by position.
      expect(shown).toMatch(/^[+\s]+CREATE_CONTENT$/m);
      expect(shown).toMatch(/^[-\s]+MESSAGING$/m);
      expect(shown).toMatch(/^[-\s]+ADVERTISE$/m);
      expect(shown).not.toMatch(/\[\d+\]/);
      // Defaults the program never set are not news: no `adopt: false` under each resource.
      expect(shown).not.toMatch(/^[\s~+-]*adopt\s*: false$/m);
      // The set: exactly the changed record, as a zone file writes it.
      expect(shown).toMatch(/^[-\s]+dmarc TXT _dmarc 3600 "v=DMARC1; p=none"$/m);
      expect(shown).toMatch(/^[+\s]+dmarc TXT _dmarc 3600 "v=DMARC1; p=reject"$/m);
      expect(shown.match(/^[-+]\s*host-\d+ /gm) ?? []).toEqual([]);
      expect(shown).not.toMatch(/host-(9|[1-9]\d) A/); // far from the change: not shown
      expect(shown).not.toContain('\\"');
      // The post's text, with the hostname of the record made in the same pull request.
      expect(shown).toContain("Our shop is open: https://shop.example.com/");
      expect(shown).toMatch(/^[+\s]*zoneId\s*: "[0-9a-f]{32}"$/m); // the new record's zone, looked up by its name
    }
    // The deprecation: once in the CLI's output, as its diagnostic line (the CLI prints it when it comes, between
    // resources, never as a line of a resource); once in the comment, among its warnings and not in its changes.
    expect(cli.match(/page rules are deprecated/g)).toHaveLength(1);
    expect(cli).toMatch(/^warning: edge: page rules are deprecated/m);
    expect(changes).not.toMatch(/page rules are deprecated|\[pulumi-ops\]/);
    expect(warnings.match(/page rules are deprecated by the service/g)).toHaveLength(1);
    expect(warnings).toContain("ops:acknowledgedWarnings: page-rules-deprecated");
  });

  it("a takeover of 20 records is summarised as taken over with 0 writes, and its up sends nothing", async () => {
    await engine.stack.setConfig("review:launch", { value: "false" });
    await engine.stack.up();
    const zone = [...edge.zones.values()].find((z) => z.name === "example.com")!;
    for (let i = 1; i <= 20; i++) {
      const res = await fetch(`${edge.url}/client/v4/zones/${zone.id}/dns_records`, {
        method: "POST",
        headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ type: "A", name: `legacy-${i}.example.com`, content: `198.51.100.${i}`, ttl: 300 }),
      });
      expect(res.status).toBe(200);
    }
    await engine.stack.setConfig("review:takeOver", { value: "20" });
    edge.log.length = 0;
    pages.log.length = 0;
    const { comment } = await reviewed();
    const summary = comment.slice(0, comment.indexOf("```diff"));
    expect(summary).toMatch(
      /\+ 20 to create · .*20 taken over, 0 writes \(objects that exist, counted above as creates: nothing is made for them\)/,
    );
    await engine.stack.up();
    expect(writes()).toEqual([]);
  });

  it("a pull request with mistakes in six resources gets one preview job naming all six, each with its field; an up sends nothing", async () => {
    await engine.stack.setConfig("review:mistakes", { value: "true" });
    edge.log.length = 0;
    pages.log.length = 0;
    const { cli, comment } = await reviewed();
    const named: [string, RegExp][] = [
      ["typo-address", /edge\.DnsRecord typo-address: content: content must be an IPv4 address/],
      ["short-ttl", /edge\.DnsRecord short-ttl: ttl: ttl must be 1 \(automatic\) or from 60/],
      ["no-zone-pattern", /edge\.PageRule no-zone-pattern: targets: "other\.example\.net\/\*" is outside the zone example\.com/],
      ["unknown-task", /pages\.PageRole unknown-task: tasks\.1: tasks takes MANAGE/],
      // The provider's own check (which knows the stack's state): the engine stops at the first, the pipeline sets it
      // aside and previews again, so the comment names both.
      ["yesterday", /PagePost resource 'yesterday': property scheduledPublishTime .* is \d+ years in the past/],
      ["last-year", /PagePost resource 'last-year': property scheduledPublishTime .* is \d+ years? in the past/],
    ];
    const problems = comment.slice(comment.indexOf("Warnings and errors:"));
    expect(comment).toMatch(/\*\*The preview failed\*\*/);
    for (const [, said] of named) {
      expect(cli).toMatch(said);
      expect(problems).toMatch(said);
    }
    expect(writes()).toEqual([]);
    // An up that skips the preview (the Automation API's) is refused the same, and sends nothing of any resource.
    await expect(engine.stack.up()).rejects.toThrow(/the inputs of 4 resources have problems, each named above: nothing was sent/);
    expect(writes()).toEqual([]);
    await engine.stack.setConfig("review:mistakes", { value: "false" });
  });

  it("an acknowledged warning is left out, and no other; a credential in config that overrides the job's is warned", async () => {
    await engine.stack.setAllConfig({
      "ops:acknowledgedWarnings": { value: "page-rules-deprecated" },
      "ops:pagesAccessToken": { value: PAGES_USER_TOKEN, secret: true },
    });
    const before = engine.cli.env.FACEBOOK_PAGE_ACCESS_TOKEN;
    engine.cli.env.FACEBOOK_PAGE_ACCESS_TOKEN = "a-read-only-token-of-the-preview-job";
    try {
      const { cli, comment } = await reviewed();
      expect(cli).not.toMatch(/page rules are deprecated/);
      expect(cli).toMatch(
        /warning: ops:pagesAccessToken in the stack's config overrides FACEBOOK_PAGE_ACCESS_TOKEN in this run's environment \(they differ\)/,
      );
      expect(comment.slice(comment.indexOf("Warnings and errors:"))).toContain("pulumi config rm ops:pagesAccessToken");
      expect(cli).not.toContain("a-read-only-token-of-the-preview-job");
    } finally {
      engine.cli.env.FACEBOOK_PAGE_ACCESS_TOKEN = before;
    }
  });
});
