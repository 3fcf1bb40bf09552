import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();

// Who may reply, its topic and a link card under the text.
const hello = new ops.posts.Post("hello", {
  text: "Fresh bread at 7.",
  replyControl: "accounts_you_follow",
  topicTag: "Bread Baking",
  linkAttachment: "https://bakery.example/loaves",
});
// A quote of it, known once it is published.
new ops.posts.Post("quote", { text: "As promised:", quotePostId: hello.postId.apply((id) => id ?? "") });
// An image with alt text, and a poll.
new ops.posts.Post("rye", { mediaType: "IMAGE", imageUrl: "https://media.example/rye.jpg", altText: "A round rye loaf on a board" });
new ops.posts.Post("poll", { text: "Which loaf next?", pollAttachment: { optionA: "Spelt", optionB: "Seeded rye", optionC: "Brioche" } });

export const helloId = hello.postId;
export let weekItems: pulumi.Output<string[] | undefined> | undefined;
if (config.getBoolean("carousel")) {
  const week = new ops.posts.Post("week", {
    mediaType: "CAROUSEL",
    text: "The week's bake",
    replyControl: "followers_only",
    children: [
      { mediaType: "IMAGE", imageUrl: "https://media.example/mon.jpg", altText: "Monday's sourdough" },
      { mediaType: "VIDEO", videoUrl: "https://media.example/oven.mp4" },
      { mediaType: "IMAGE", imageUrl: "https://media.example/fri.jpg" },
    ],
  });
  weekItems = week.childIds;
}

// A thread: a post and two replies, each to the one before. A changed text republishes from it on (allowRepublish).
const recipe = new ops.posts.Thread("recipe", {
  posts: ["Our sourdough, step by step", config.get("step1") ?? "1. Feed the starter the night before.", "2. Mix, rest, fold."],
  allowRepublish: config.getBoolean("allowRepublish") ?? false,
});
export const recipeIds = recipe.postIds;
// Long text under a post, with a link, and a spoiler over part of the text.
new ops.posts.Post("long", {
  text: "The winner is Rye. The full recipe:",
  textAttachment: { text: "Proof for 12 hours at 4 °C, then bake at 250 °C for 40 minutes.", link: "https://bakery.example/recipe" },
  textSpoilers: [{ offset: 14, length: 3 }],
});
