/**
 * An answer that is not what the API speaks — a redirect, an HTML page, an empty body — is one clear error naming the
 * setting to check, on every service, never a JavaScript TypeError. A stand-in server on loopback answers each way.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invoke } from "../../provider/door";

let answer: (res: http.ServerResponse) => void = () => undefined;
const server = http.createServer((_req, res) => answer(res));
let url = "";

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(process.env, {
    EDGE_BASE_URL: url,
    EDGE_API_TOKEN: "edge-token-for-not-json",
    PAGES_BASE_URL: url,
    PAGES_ACCESS_TOKEN: "pages-token-for-not-json",
    POSTS_BASE_URL: url,
    POSTS_ACCESS_TOKEN: "posts-token-for-not-json",
    RUNNER_HOST: url,
    SKILLS_URL: url,
    CONTROL_URL: url,
    EDGE_MAX_RETRIES: "0",
    PAGES_MAX_RETRIES: "0",
    POSTS_MAX_RETRIES: "0",
  });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const CALLS: [string, Record<string, unknown>, string][] = [
  ["edge:getZone", { name: "example.com" }, "ops:edgeBaseUrl"],
  ["pages:getPage", { pageId: "200000000000001" }, "ops:pagesBaseUrl"],
  ["posts:getProfile", {}, "ops:postsBaseUrl"],
  ["runner:listModels", {}, "ops:runnerHost"],
  ["skills:getSkill", { slug: "oven-care" }, "ops:skillsUrl"],
  ["control:listTools", {}, "ops:controlUrl"],
];
const ANSWERS: [string, (res: http.ServerResponse) => void, RegExp][] = [
  [
    "an HTML page",
    (res) => res.writeHead(200, { "content-type": "text/html" }).end("<html>login</html>"),
    /answered 200 text\/html where JSON was expected/,
  ],
  [
    "a redirect",
    (res) => res.writeHead(302, { location: "https://login.example/", "content-type": "text/html" }).end(""),
    /answered 302 text\/html and an empty body where JSON was expected.*redirects to https:\/\/login\.example\//,
  ],
  [
    "an empty body",
    (res) => res.writeHead(200, { "content-type": "application/json" }).end(""),
    /answered 200 application\/json and an empty body where JSON was expected/,
  ],
];

describe("answers that are not JSON", () => {
  for (const [fn, args, key] of CALLS) {
    it.each(ANSWERS)(`${fn}: %s names ${key}`, async (_what, reply, message) => {
      answer = reply;
      const err = await invoke(fn, args).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err, "it must fail").toBeDefined();
      expect(err!.message).toMatch(message);
      expect(err!.message).toContain(`Check ${key}`);
      expect(err!.name).not.toBe("TypeError");
      expect(err!.message).not.toMatch(/Cannot read|is not a function|Unexpected token|undefined/);
    });
  }
});
