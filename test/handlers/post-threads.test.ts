/**
 * Threads as their users write them (issue 61, item 2): a chain of replies (`replyTo`, each to the one before), long
 * text under a post (`textAttachment`, counted in the five links), spoilers over parts of the text and over media —
 * sent as the container's fields, refused at check where the service surely refuses, replies counted against their
 * own quota at preview, and a reply whose publish answer was lost found among the account's replies, not made twice.
 */
import { describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { forgetPreviewChecks, previewCheck } from "../../provider/preflight";
import { useSocial } from "../helpers/social";

const { posts } = useSocial();

async function make(args: Record<string, unknown>) {
  const { inputs, failures } = await call("posts:Post", "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call("posts:Post", "create", [inputs])) };
}
const check = async (args: Record<string, unknown>) => (await call("posts:Post", "check", [{}, args])).failures;

describe("threads: replies, long text and spoilers", () => {
  it("a thread of three: each a reply to the one before, read back as the service's conversation", async () => {
    const first = await make({ text: "Our sourdough, step by step 🧵" });
    const second = await make({ text: "1. Feed the starter the night before.", replyTo: first.id });
    const third = await make({ text: "2. Mix, rest, fold.", replyTo: second.id });
    expect(posts.posts.get(second.id)).toMatchObject({ replied_to: first.id, root_post: first.id });
    expect(posts.posts.get(third.id)).toMatchObject({ replied_to: second.id, root_post: first.id });
    expect(third.outs.replyTo).toBe(second.id);
    // Replies count against the replies' quota, not the 250 posts'.
    expect(posts.quotaUsed()).toBe(1);
    expect(posts.quotaUsed(undefined, true)).toBe(2);
    const read = await call("posts:Post", "read", [third.id, third.outs]);
    expect(await call("posts:Post", "diff", [third.id, read.props, third.inputs])).toMatchObject({ changes: false });
  });

  it("a reply whose publish answer was lost is found among the account's replies: one reply, not two", async () => {
    const first = await make({ text: "Lost replies" });
    posts.inject({ match: { method: "POST", path: "/threads_publish$" }, count: 1, kind: "status-after", status: 500 });
    const reply = await make({ text: "Found again", replyTo: first.id });
    const replies = [...posts.posts.values()].filter((p) => p.replied_to === first.id);
    expect(replies.map((p) => p.id)).toEqual([reply.id]);
    expect(posts.count("GET", /\/me\/replies$/)).toBeGreaterThanOrEqual(1);
  });

  it("long text with a link, and spoilers over the text and over an image: sent as the service takes them", async () => {
    const long = "Proof for 12 hours at 4 °C. ".repeat(300).trim();
    await make({ text: "The full recipe:", textAttachment: { text: long, link: "https://bakery.example/recipe" } });
    expect([...posts.containers.values()].at(-1)!.text_attachment).toEqual({
      plaintext: long,
      link_attachment_url: "https://bakery.example/recipe",
    });
    await make({ text: "The winner is Rye!", textSpoilers: [{ offset: 14, length: 3 }] });
    expect([...posts.containers.values()].at(-1)!.text_entities).toEqual([{ entity_type: "SPOILER", offset: 14, length: 3 }]);
    await make({ mediaType: "IMAGE", imageUrl: "https://media.example/cake.jpg", spoilerMedia: true });
    expect([...posts.containers.values()].at(-1)!.is_spoiler_media).toBe(true);
  });

  it("a change of the post replied to, or of the long text, replaces the post; refused without allowRepublish", async () => {
    const olds = { mediaType: "TEXT", text: "2.", replyTo: "17841400000007919", allowRepublish: false, postId: "1" };
    const refused = await call("posts:Post", "check", [olds, { text: "2.", replyTo: "17841400000015838" }]);
    expect(refused.failures[0]).toMatchObject({ property: "replyTo", reason: expect.stringMatching(/allowRepublish: true/) });
    expect(await call("posts:Post", "diff", ["1", olds, { ...olds, textAttachment: { text: "more" } }])).toMatchObject({
      replaces: ["textAttachment"],
    });
  });

  it("replies are counted against their own quota at preview", async () => {
    posts.publishes = Array.from({ length: 999 }, (_, i) => ({ id: `r${i}`, owner: "500000000000001", at: Date.now(), reply: true }));
    forgetPreviewChecks();
    await previewCheck("posts:Post", undefined, { mediaType: "TEXT", text: "one more", replyTo: "1" }, {});
    await expect(previewCheck("posts:Post", undefined, { mediaType: "TEXT", text: "and another", replyTo: "1" }, {})).rejects.toThrow(
      /may publish 1000 replies per 24 hours and has published 999: 2 new replies would go over it \(1 left\)/,
    );
    // Posts still have their 250.
    await previewCheck("posts:Post", undefined, { mediaType: "TEXT", text: "a post" }, {});
    forgetPreviewChecks();
  });

  it("refuses at check what the service surely refuses, naming the field, and sends nothing", async () => {
    const IMG = "https://media.example/a.jpg";
    const links = (n: number) => Array.from({ length: n }, (_, i) => `https://l${i}.example`).join(" ");
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ text: "hi", replyTo: "https://www.threads.com/@x/post/abc" }, "replyTo", /numeric id/],
      [{ text: "hi", textAttachment: { text: "x".repeat(10_001) } }, "textAttachment.text", /at most 10000 characters: this one has 10001/],
      [{ text: "hi", textAttachment: { text: "  " } }, "textAttachment.text", /blank/],
      [{ mediaType: "IMAGE", imageUrl: IMG, textAttachment: { text: "long" } }, "textAttachment", /TEXT posts/],
      [
        { text: "hi", pollAttachment: { optionA: "a", optionB: "b" }, textAttachment: { text: "long" } },
        "textAttachment",
        /poll or a text/,
      ],
      [
        { text: "hi", linkAttachment: "https://a.example", textAttachment: { text: "long", link: "https://b.example" } },
        "textAttachment",
        /linkAttachment cannot have a link/,
      ],
      [{ text: links(5), textAttachment: { text: "long", link: "https://other.example" } }, "textAttachment", /6 distinct links/],
      [{ text: "hi", spoilerMedia: true }, "spoilerMedia", /IMAGE, VIDEO and CAROUSEL/],
      [{ text: "hi", textSpoilers: [{ offset: 1, length: 5 }] }, "textSpoilers", /reaches past the text's 2 characters/],
      [
        { text: "x".repeat(40), textSpoilers: Array.from({ length: 11 }, (_, i) => ({ offset: i, length: 1 })) },
        "textSpoilers",
        /at most 10/,
      ],
      [{ text: "hi", textSpoilers: [{ offset: 0.5, length: 1 }] }, "textSpoilers.0.offset", /whole number/],
    ];
    for (const [args, property, reason] of cases)
      expect(await check(args), JSON.stringify(args)).toEqual(
        expect.arrayContaining([expect.objectContaining({ property, reason: expect.stringMatching(reason) })]),
      );
    // The same link in the text and the attachment counts once.
    expect(await check({ text: `${links(5)}`, textAttachment: { text: "long", link: "https://l0.example" } })).toEqual([]);
    expect(posts.log).toEqual([]);
  });

  it("spoilers over a text not known yet (a preview) are not judged; spoilerMedia false is nothing to refuse", async () => {
    const { UNKNOWN } = await import("../../provider/check");
    expect(await check({ text: UNKNOWN, textSpoilers: [{ offset: 40, length: 5 }] })).toEqual([]);
    expect(await check({ text: "hi", spoilerMedia: false })).toEqual([]);
  });
});
