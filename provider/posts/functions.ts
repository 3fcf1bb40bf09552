/** The short-post service's read-only functions. */
import { z } from "zod";
import { requireArgs } from "../check";
import { posts } from "./client";

export const functionArgs = {
  getProfile: z.object({}),
  getPosts: z.object({ limit: z.number().int().min(1).max(100).default(25).describe("At most this many posts, newest first (1 to 100).") }),
};

export async function getProfile(args: z.input<typeof functionArgs.getProfile> = {}) {
  requireArgs("posts", "getProfile", functionArgs.getProfile, args);
  return posts().me();
}

export async function getPosts(args: z.input<typeof functionArgs.getPosts> = {}) {
  return (await posts().posts(requireArgs("posts", "getPosts", functionArgs.getPosts, args).limit)).data;
}
