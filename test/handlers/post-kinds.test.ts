/**
 * Posts as users write them (issue 47, item 3): who may reply, a topic tag, a link card, a quote, alt text, a carousel
 * of images and videos, a poll — each checked at `check` as the service checks it, sent as the container's fields,
 * read back without drift, and a carousel whose publish answer was lost recovered without a second one.
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
/** The containers the service holds, in the order they were made. */
const created = () => [...posts.containers.values()];
const IMG = (n: number) => `https://media.example/loaf-${n}.jpg`;

describe("every post a Threads user makes", () => {
  it("a text post with reply control, a topic tag and a link card: sent as the container's fields, read back without drift", async () => {
    const p = await make({
      text: "New loaves today.",
      replyControl: "accounts_you_follow",
      topicTag: "Bread Baking",
      linkAttachment: "https://bakery.example/loaves",
    });
    expect(created()[0]).toMatchObject({
      media_type: "TEXT",
      reply_audience: "ACCOUNTS_YOU_FOLLOW",
      topic_tag: "Bread Baking",
      link_attachment_url: "https://bakery.example/loaves",
    });
    const onService = await call("posts:Post", "read", [p.id, p.outs]);
    expect(await call("posts:Post", "diff", [p.id, onService.props, p.inputs])).toMatchObject({ changes: false });
    const view = posts.posts.get(p.id)!;
    expect([view.reply_audience, view.topic_tag, view.link_attachment_url]).toEqual([
      "ACCOUNTS_YOU_FOLLOW",
      "Bread Baking",
      "https://bakery.example/loaves",
    ]);
  });

  it("a quote of another post, an image with alt text and a poll", async () => {
    const first = await make({ text: "Rye is back." });
    const quote = await make({ text: "As promised:", quotePostId: first.id });
    expect(posts.posts.get(quote.id)!.quoted_post).toBe(first.id);
    await make({ mediaType: "IMAGE", imageUrl: IMG(1), altText: "A round rye loaf on a board" });
    expect(created().at(-1)).toMatchObject({ media_type: "IMAGE", alt_text: "A round rye loaf on a board" });
    const poll = await make({ text: "Which loaf next?", pollAttachment: { optionA: "Spelt", optionB: "Seeded rye", optionC: "Brioche" } });
    expect(posts.posts.get(poll.id)!.poll).toEqual({ option_a: "Spelt", option_b: "Seeded rye", option_c: "Brioche" });
  });

  it("a carousel of three: each item made and FINISHED before the carousel, one publish, its items named, destroy removes all", async () => {
    const children = [
      { mediaType: "IMAGE", imageUrl: IMG(1), altText: "Rye" },
      { mediaType: "VIDEO", videoUrl: "https://media.example/oven.mp4" },
      { mediaType: "IMAGE", imageUrl: IMG(2) },
    ];
    const p = await make({ mediaType: "CAROUSEL", text: "The week's bake", children, replyControl: "followers_only" });
    const sent = created();
    expect(sent.map((c) => [c.media_type, c.carouselItem, c.alt_text])).toEqual([
      ["IMAGE", true, "Rye"],
      ["VIDEO", true, undefined],
      ["IMAGE", true, undefined],
      ["CAROUSEL", undefined, undefined],
    ]);
    expect(sent[3]).toMatchObject({
      text: "The week's bake",
      reply_audience: "FOLLOWERS_ONLY",
      children: sent.slice(0, 3).map((c) => c.id),
    });
    expect(posts.count("POST", /threads_publish$/)).toBe(1);
    expect(p.outs.childIds).toHaveLength(3);
    expect(p.outs.mediaType).toBe("CAROUSEL");
    expect(posts.publishedInWindow()).toHaveLength(1); // one post of the day's 250
    expect(await call("posts:Post", "diff", [p.id, (await call("posts:Post", "read", [p.id, p.outs])).props, p.inputs])).toMatchObject({
      changes: false,
    });
    await call("posts:Post", "delete", [p.id, p.outs]);
    expect(posts.posts.size).toBe(0);
  });

  it("a carousel whose publish answer was lost is recovered: one post, not two", async () => {
    posts.inject({ match: { method: "POST", path: "/threads_publish$" }, count: 1, kind: "status-after", status: 500 });
    const p = await make({
      mediaType: "CAROUSEL",
      text: "Lost and found",
      children: [
        { mediaType: "IMAGE", imageUrl: IMG(1) },
        { mediaType: "IMAGE", imageUrl: IMG(2) },
      ],
    });
    expect(posts.publishedInWindow()).toHaveLength(1);
    expect(p.id).toBe(posts.publishedInWindow()[0].id);
    expect(p.outs.childIds).toHaveLength(2);
  });

  it("a change of any of these is a replacement, compared as values (a carousel's items as a list, whatever the order of their keys)", async () => {
    const p = await make({
      mediaType: "CAROUSEL",
      text: "Two",
      children: [
        { mediaType: "IMAGE", imageUrl: IMG(1) },
        { mediaType: "IMAGE", imageUrl: IMG(2) },
      ],
    });
    // The same items with their keys in another order (the engine's state sorts them): no change.
    const again = {
      ...p.inputs,
      children: [
        { imageUrl: IMG(1), mediaType: "IMAGE" },
        { imageUrl: IMG(2), mediaType: "IMAGE" },
      ],
    };
    expect(await call("posts:Post", "diff", [p.id, p.outs, again])).toMatchObject({ changes: false });
    expect(
      await call("posts:Post", "diff", [p.id, p.outs, { ...again, children: [...again.children].reverse(), allowRepublish: true }]),
    ).toMatchObject({ replaces: ["children"] });
    const refused = await call("posts:Post", "check", [p.inputs, { ...again, topicTag: "Bread" }]);
    expect(refused.failures[0]).toMatchObject({ property: "topicTag", reason: expect.stringMatching(/allowRepublish: true/) });
  });

  it("a replacement by any of these fields counts against the day's deletes at preview (a carousel's items, a topic)", async () => {
    posts.deletesToday = Array.from({ length: 99 }, () => Date.now()); // one left
    forgetPreviewChecks();
    const olds = {
      mediaType: "CAROUSEL",
      text: "Two",
      children: [
        { mediaType: "IMAGE", imageUrl: IMG(1) },
        { mediaType: "IMAGE", imageUrl: IMG(2) },
      ],
      allowRepublish: true,
    };
    await previewCheck("posts:Post", undefined, { ...olds, children: [...olds.children].reverse() }, olds);
    await expect(
      previewCheck(
        "posts:Post",
        undefined,
        { mediaType: "TEXT", text: "Hi", topicTag: "Rye", allowRepublish: true },
        { mediaType: "TEXT", text: "Hi", topicTag: "Bread", allowRepublish: true },
      ),
    ).rejects.toThrow(/has deleted 99 \(1 left\): this run's 2 replaced posts/);
    forgetPreviewChecks();
  });

  it("refuses at check what the service refuses, naming the field, and sends nothing", async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ text: "hi", replyControl: "friends" }, "replyControl", /one of everyone, accounts_you_follow/],
      [{ text: "hi", topicTag: "bread.baking" }, "topicTag", /period/],
      [{ text: "hi", topicTag: "x".repeat(51) }, "topicTag", /at most 50/],
      [{ mediaType: "IMAGE", imageUrl: IMG(1), linkAttachment: "https://bakery.example" }, "linkAttachment", /TEXT posts/],
      [{ text: "hi", altText: "a loaf" }, "altText", /IMAGE and VIDEO/],
      [{ mediaType: "IMAGE", imageUrl: IMG(1), altText: "x".repeat(1001) }, "altText", /at most 1000/],
      [{ mediaType: "CAROUSEL", children: [{ mediaType: "IMAGE", imageUrl: IMG(1) }] }, "children", /2 to 20/],
      [
        { mediaType: "CAROUSEL", children: Array.from({ length: 21 }, (_, i) => ({ mediaType: "IMAGE", imageUrl: IMG(i) })) },
        "children",
        /at most 20/,
      ],
      [{ mediaType: "CAROUSEL" }, "children", /needs children/],
      [
        { mediaType: "CAROUSEL", children: [{ mediaType: "IMAGE" }, { mediaType: "IMAGE", imageUrl: IMG(2) }] },
        "children.0.imageUrl",
        /needs imageUrl/,
      ],
      [
        {
          text: "hi",
          children: [
            { mediaType: "IMAGE", imageUrl: IMG(1) },
            { mediaType: "IMAGE", imageUrl: IMG(2) },
          ],
        },
        "children",
        /CAROUSEL posts/,
      ],
      [{ text: "hi", pollAttachment: { optionA: "Spelt" } }, "pollAttachment.optionB", /./],
      [{ text: "hi", pollAttachment: { optionA: "Spelt", optionB: "x".repeat(26) } }, "pollAttachment.optionB", /at most 25/],
      [{ mediaType: "IMAGE", imageUrl: IMG(1), pollAttachment: { optionA: "a", optionB: "b" } }, "pollAttachment", /TEXT posts/],
      [{ text: "hi", quotePostId: "https://www.threads.com/@x/post/abc" }, "quotePostId", /numeric id/],
    ];
    for (const [args, property, reason] of cases)
      expect(await check(args), JSON.stringify(args)).toEqual(
        expect.arrayContaining([expect.objectContaining({ property, reason: expect.stringMatching(reason) })]),
      );
    expect(posts.log).toEqual([]);
  });

  it("the service's own refusal of a container is one line naming the field (a quote of a post that does not exist)", async () => {
    const { inputs } = await call("posts:Post", "check", [{}, { text: "Quoting", quotePostId: "17841499999999999" }]);
    await expect(call("posts:Post", "create", [inputs])).rejects.toThrow(/quote_post_id/);
    expect(posts.count("POST", /threads_publish$/)).toBe(0);
  });
});
