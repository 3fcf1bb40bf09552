/** The short-post service's read-only functions. */
import { z } from "zod";
import { ValidationError } from "../http/errors";
import { posts } from "./client";

export const functionArgs = {
  getProfile: z.object({}),
  getPosts: z.object({ limit: z.number().int().min(1).max(100).default(25) }),
};

export async function getProfile() {
  return posts().me();
}

export async function getPosts(args: z.input<typeof functionArgs.getPosts> = {}) {
  const r = functionArgs.getPosts.safeParse(args);
  if (!r.success) throw new ValidationError({ service: "posts", message: `getPosts: ${r.error.issues[0].path.join(".")}: ${r.error.issues[0].message}` });
  return (await posts().posts(r.data.limit)).data;
}
