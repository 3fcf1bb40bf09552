/** Read-only functions of the short-post service. */
import { withStackConfig } from "../config";
import * as posts from "../../provider/posts/functions";

/** The authenticated user's profile. */
export const getProfile = withStackConfig(posts.getProfile);
/** The user's latest posts with their counts. */
export const getPosts = withStackConfig(posts.getPosts);
