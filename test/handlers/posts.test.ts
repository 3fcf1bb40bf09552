import { describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { useSocial } from "../helpers/social";

const { posts } = useSocial();

async function make(type: string, args: Record<string, unknown>) {
  const { inputs, failures } = await call(type, "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call(type, "create", [inputs])) };
}

describe("Post", () => {
  it("waits for the container, publishes, reads back, replaces on any change and deletes", async () => {
    const p = await make("posts:Post", { mediaType: "TEXT", text: "Fresh bread at 7." });
    expect(p.outs.permalink).toMatch(/^https:\/\/posts\.example\/@examplebakery\/post\//);
    expect(posts.count("GET", /\/v1\.0\/\w+$/)).toBeGreaterThanOrEqual(2); // polled the container at least once
    expect((await call("posts:Post", "read", [p.id, p.outs])).props.permalink).toBe(p.outs.permalink);
    expect(await call("posts:Post", "diff", [p.id, p.outs, { ...p.inputs, text: "Fresh bread at 6." }])).toMatchObject({ replaces: ["text"] });
    await call("posts:Post", "delete", [p.id, p.outs]);
    expect(await call("posts:Post", "read", [p.id, p.outs])).toEqual({});
  });

  it("reports media the service could not process, with the remedy", async () => {
    await expect(make("posts:Post", { mediaType: "IMAGE", imageUrl: "https://media.example/huge.jpg?bytes=9000000" })).rejects.toThrow(/could not be processed.*under 8 MB/);
    expect(posts.count("POST", /posts_publish$/)).toBe(0);
  });

  it("refuses at check what the service would refuse", async () => {
    const check = (a: object) => call("posts:Post", "check", [{}, a]);
    expect((await check({ text: "x".repeat(501) })).failures[0]).toMatchObject({ property: "text", reason: expect.stringMatching(/500/) });
    expect((await check({ mediaType: "IMAGE" })).failures[0].property).toBe("imageUrl");
    expect((await check({ mediaType: "TEXT", text: "hi", videoUrl: "https://media.example/v.mp4" })).failures[0].property).toBe("videoUrl");
    expect((await check({ mediaType: "VIDEO", videoUrl: "file:///etc/passwd" })).failures[0].property).toBe("videoUrl");
    expect(posts.log).toEqual([]);
  });
});

describe("WebhookSubscription", () => {
  const hook = { appId: "400000000000001", callbackUrl: "https://hooks.example/posts", fields: ["replies", "mentions"], verifyToken: "verify-me-please" };

  it("subscribes with the app token, updates, reads and unsubscribes", async () => {
    const s = await make("posts:WebhookSubscription", hook);
    expect(s.id).toBe("400000000000001/posts");
    expect(s.outs.fields).toEqual(["mentions", "replies"]);
    expect(posts.subscriptions.get("posts")!.verify_token).toBe("verify-me-please");
    await call("posts:WebhookSubscription", "update", [s.id, s.outs, { ...s.inputs, fields: ["mentions"] }]);
    expect((await call("posts:WebhookSubscription", "read", [s.id, s.outs])).props).toMatchObject({ fields: ["mentions"], verifyToken: "verify-me-please" });
    await call("posts:WebhookSubscription", "delete", [s.id, s.outs]);
    expect(await call("posts:WebhookSubscription", "read", [s.id, s.outs])).toEqual({});
  });

  it("names the config key when the app token is missing", async () => {
    delete process.env.POSTS_APP_TOKEN;
    await expect(make("posts:WebhookSubscription", hook)).rejects.toThrow(/ops:postsAppToken.*POSTS_APP_TOKEN/);
  });
});
