/** ops.posts.Thread under pulumi.runtime.setMocks: its posts, their names and parent, and each reply's post. */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";

const registered: pulumi.runtime.MockResourceArgs[] = [];
beforeAll(() => {
  pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push(args);
        const postId = `1784140000000${registered.length}`;
        return { id: `${args.name}-id`, state: { ...args.inputs, postId, permalink: `https://www.threads.com/@b/post/${args.name}` } };
      },
      call: () => ({}),
    },
    "project",
    "stack",
    false,
  );
});

const value = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply((v) => resolve(v)));

describe("ops.posts.Thread", () => {
  it("makes a Post per text, children of the thread, each a reply to the one before; the first alone carries the topic", async () => {
    const ops = await import("../../sdk");
    const t = new ops.posts.Thread("recipe", { posts: ["Step by step", "1. Feed.", "2. Fold."], topicTag: "Bread", allowRepublish: true });
    const ids = await value(t.postIds);
    expect(await value(t.permalinks)).toHaveLength(3);
    const posts = ["recipe-1", "recipe-2", "recipe-3"].map((n) => registered.find((r) => r.name === n)!);
    expect(posts.map((p) => p.type)).toEqual(Array(3).fill("pulumi-nodejs:dynamic/posts:Post"));
    expect(registered.find((r) => r.name === "recipe")!.type).toBe("ops:posts:Thread");
    expect(posts.map((p) => p.inputs.text)).toEqual(["Step by step", "1. Feed.", "2. Fold."]);
    expect(posts.map((p) => p.inputs.replyTo)).toEqual([undefined, ids[0], ids[1]]);
    expect(posts.map((p) => p.inputs.topicTag)).toEqual(["Bread", undefined, undefined]);
    expect(posts.every((p) => p.inputs.allowRepublish === true)).toBe(true);
  });

  it("refuses a thread of no posts, naming it", async () => {
    const ops = await import("../../sdk");
    expect(() => new ops.posts.Thread("empty", { posts: [] })).toThrow(/ops.posts.Thread empty: posts must list the thread's texts/);
  });
});
