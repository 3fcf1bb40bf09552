/** The short-post emulator's seeded app, accounts and tokens, and the service's quotas. */
export const POSTS_APP = { id: "400000000000001", secret: "posts-app-secret-0123" };
/** A long-lived user token (60 days). */
export const POSTS_USER_TOKEN = "posts-user-token-0123456789";
/** A short-lived user token (one hour), as the authorization code exchange gives: exchanged for a long-lived one. */
export const POSTS_SHORT_TOKEN = "posts-short-token-0123456789";
export const POSTS_AUTH_CODE = "posts-auth-code-0123";
export const USER = { id: "500000000000001", username: "examplebakery", name: "Example Bakery", biography: "Bread since 1921" };
export const OTHER = { id: "500000000000002", username: "otherbakery", name: "Other Bakery", biography: "Cakes" };
export const POSTS_USER_ID = USER.id;
/** A valid token of another account: it sees none of the first account's posts (Graph answers 100/33 for them). */
export const POSTS_OTHER_TOKEN = "posts-other-token-0123456789";
export const T = "THApiException";
export const DAY = 86_400_000;
export const PUBLISH_QUOTA = 250;
/** Posts an account may delete per moving 24 hours (permission threads_delete). */
export const DELETE_QUOTA = 100;
/** Replies an account may publish per moving 24 hours, apart from its posts (`reply_config`). */
export const REPLY_QUOTA = 1000;
