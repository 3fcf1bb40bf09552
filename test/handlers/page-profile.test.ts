/**
 * PageProfile against the pages emulator: the fields the program gives written where the page holds another value
 * (nothing sent where it holds the program's), the others kept; a change on the page found by refresh field by
 * field and put back; values compared as the service means them (emails as a set, a website with or without its
 * scheme); a token without the permission or a user without the MANAGE task refused at preview; destroy leaving the
 * page as it is.
 */
import { describe, expect, it } from "vitest";
import { PAGE_ID, PAGES_APP, PAGES_MODERATOR_TOKEN } from "../../emulators";

const MODERATOR_USER_TOKEN = "moderator-user-token-0123456789";
import { call } from "../../provider/door";
import { collectWarnings } from "../../provider/log";
import { forgetPreviewChecks, previewCheck } from "../../provider/preflight";
import { useSocial } from "../helpers/social";

const { pages } = useSocial();
const page = () => pages.pages.get(PAGE_ID)!;

async function checked(args: Record<string, unknown>) {
  const { inputs, failures } = await call("pages:PageProfile", "check", [{}, args]);
  expect(failures).toEqual([]);
  return inputs;
}
async function make(args: Record<string, unknown>) {
  const inputs = await checked(args);
  return { inputs, ...(await call("pages:PageProfile", "create", [inputs])) };
}
const writes = () => pages.log.filter((e) => e.method === "POST" && e.path.endsWith(`/${PAGE_ID}`));

describe("PageProfile", () => {
  it("writes the fields given, keeps the others, reads back without drift, puts back a change made on the page, and destroy leaves the page as it is", async () => {
    const before = { ...page().profile };
    const p = await make({
      pageId: PAGE_ID,
      about: "Bread and pastries since 1921",
      emails: ["orders@bakery.example", "hello@bakery.example"],
    });
    expect(p.id).toBe(`${PAGE_ID}/profile`);
    expect(page().about).toBe("Bread and pastries since 1921");
    expect(page().profile.emails).toEqual(["orders@bakery.example", "hello@bakery.example"]);
    expect(page().profile).toMatchObject({
      website: before.website,
      phone: before.phone,
      hours: before.hours,
      description: before.description,
    });
    expect(p.outs.managed).toEqual(["about", "emails"]);
    const read = await call("pages:PageProfile", "read", [p.id, p.outs]);
    expect(read.props).toEqual(p.outs);
    expect((await call("pages:PageProfile", "diff", [p.id, read.props, p.inputs])).changes).toBe(false);

    // Changed on the page (the Business Suite, a manager): found field by field, put back by the next up.
    page().about = "Closed for the holidays";
    page().profile.emails = ["hello@bakery.example", "orders@bakery.example"]; // the same set, another order: no drift
    const reading = collectWarnings(() => call("pages:PageProfile", "read", [p.id, p.outs]));
    const drifted = await reading.result;
    expect(reading.warnings.join("\n")).toMatch(
      /page 200000000000001's profile was changed on the page: about "Bread and pastries since 1921" → "Closed for the holidays"; the next up writes the program's again/,
    );
    expect(await call("pages:PageProfile", "diff", [p.id, drifted.props, p.inputs])).toMatchObject({ changes: true, replaces: [] });
    pages.log.splice(0);
    await call("pages:PageProfile", "update", [p.id, drifted.props, p.inputs]);
    expect(page().about).toBe("Bread and pastries since 1921");
    expect(writes()).toHaveLength(1);
    expect(page().profile.emails).toEqual(["hello@bakery.example", "orders@bakery.example"]); // not sent again: the same set

    await call("pages:PageProfile", "delete", [p.id, p.outs]);
    expect(page().about).toBe("Bread and pastries since 1921");
  });

  it("takes over a profile that already holds the program's values with nothing sent; a website with its scheme or a trailing slash is the same", async () => {
    pages.log.splice(0);
    const p = await make({ pageId: PAGE_ID, about: page().about, website: "bakery.example/", hours: { ...page().profile.hours } });
    expect(writes()).toEqual([]);
    expect(p.outs.website).toBe("https://bakery.example");
  });

  it("opening hours by key: a changed closing time is one field of one write", async () => {
    const p = await make({
      pageId: PAGE_ID,
      hours: { mon_1_open: "07:00", mon_1_close: "18:00", sat_1_open: "08:00", sat_1_close: "13:00" },
    });
    expect(page().profile.hours).toEqual({ mon_1_open: "07:00", mon_1_close: "18:00", sat_1_open: "08:00", sat_1_close: "13:00" });
    const later = await checked({
      pageId: PAGE_ID,
      hours: { sat_1_close: "14:00", sat_1_open: "08:00", mon_1_close: "18:00", mon_1_open: "07:00" },
    });
    expect(await call("pages:PageProfile", "diff", [p.id, p.outs, later])).toMatchObject({ changes: true });
    await call("pages:PageProfile", "update", [p.id, p.outs, later]);
    expect(page().profile.hours.sat_1_close).toBe("14:00");
  });

  it("refuses at preview a token without pages_manage_metadata or a user without the MANAGE task, with nothing sent", async () => {
    const inputs = await checked({ pageId: PAGE_ID, about: "x" });
    // A page token of a moderator, issued without pages_manage_metadata (debug_token tells it, with the app's secret).
    Object.assign(process.env, { PAGES_ACCESS_TOKEN: PAGES_MODERATOR_TOKEN, PAGES_APP_SECRET: PAGES_APP.secret });
    try {
      forgetPreviewChecks();
      await expect(previewCheck("pages:PageProfile", undefined, inputs)).rejects.toThrow(
        /page token in ops:pagesAccessToken was issued without pages_manage_metadata, which PageProfile needs/,
      );
    } finally {
      delete process.env.PAGES_APP_SECRET;
      forgetPreviewChecks();
    }
    // A user token of a moderator: its role has no MANAGE task on the page.
    process.env.PAGES_ACCESS_TOKEN = MODERATOR_USER_TOKEN;
    pages.tokens.set(MODERATOR_USER_TOKEN, {
      kind: "user",
      userId: "300000000000002",
      scopes: ["pages_manage_metadata", "pages_show_list"],
    });
    await expect(previewCheck("pages:PageProfile", undefined, inputs)).rejects.toThrow(/changing the page's profile needs MANAGE/);
    expect(writes()).toEqual([]);
  });

  it("refuses at check what the page cannot hold (hours keys and times, emails, a website); an about text past the service's limit is sent, and its refusal is one line", async () => {
    const failures = async (args: Record<string, unknown>) =>
      (await call("pages:PageProfile", "check", [{}, { pageId: PAGE_ID, ...args }])).failures.map((f: { property: string }) => f.property);
    expect(await failures({ hours: { monday_open: "07:00" } })).toEqual([expect.stringMatching(/^hours/)]);
    expect(await failures({ hours: { mon_1_open: "7am" } })).toEqual([expect.stringMatching(/^hours/)]);
    expect(await failures({ emails: ["not-an-address"] })).toEqual([expect.stringMatching(/^emails/)]);
    expect(await failures({ website: "bakery" })).toEqual(["website"]);
    expect(pages.log.filter((e) => e.method === "POST")).toEqual([]);
    await expect(make({ pageId: PAGE_ID, about: "x".repeat(101) })).rejects.toThrow(/Param about must be at most 100 characters long/);
  });
});
