/**
 * The short-post service's tokens (the Threads API's "Get Access Tokens and Permissions"): the authorization code
 * exchanged for a short-lived token, that exchanged once for a long-lived one (60 days), refreshed once it is a day
 * old, and a token's facts at `debug_token`.
 */
import type { Handler } from "../kit";
import { graphError, ok, params } from "../graph";
import { DAY, POSTS_APP, POSTS_AUTH_CODE, POSTS_SHORT_TOKEN, T, USER } from "./seed";
import type { PostsEmulator } from "./server";

/** The authorization code, the long-lived exchange (`th_exchange_token`) and the refresh (`th_refresh_token`). */
export function registerTokenRoutes(posts: PostsEmulator, route: (method: string, path: string, handler: Handler) => void): void {
  const longLived = () => {
    const fresh = `posts-long-${posts.nextId()}`;
    posts.tokens.set(fresh, { issuedAt: posts.now(), expiresAt: posts.now() + 5_183_944_000 });
    return ok({ access_token: fresh, token_type: "bearer", expires_in: 5_183_944 });
  };
  route("POST", "/oauth/access_token", (req) => {
    const p = params(req);
    if (p.client_id !== POSTS_APP.id || p.client_secret !== POSTS_APP.secret)
      graphError(400, 101, "Error validating client secret", "OAuthException");
    if (p.grant_type !== "authorization_code" || p.code !== POSTS_AUTH_CODE)
      graphError(400, 100, "Invalid authorization code", "OAuthException");
    return ok({ access_token: POSTS_SHORT_TOKEN, user_id: Number(USER.id) });
  });
  route("GET", "/access_token", (req) => {
    const p = params(req);
    if (p.grant_type !== "th_exchange_token") graphError(400, 100, "Unsupported grant_type: use th_exchange_token", T);
    if (p.client_secret !== POSTS_APP.secret) graphError(400, 101, "Error validating client secret", "OAuthException");
    const exp = posts.shortTokens.get(p.access_token ?? "");
    if (exp === undefined || exp < posts.now())
      graphError(400, 190, "Invalid OAuth access token: a short-lived token is exchanged once, within its hour", "OAuthException", 467);
    return longLived();
  });
  // A token's facts, asked with a token of a tester of the same app (the user's own, for an app in development).
  route("GET", "/v1.0/debug_token", (req) => {
    const p = params(req);
    const t = posts.tokens.get(p.input_token ?? "");
    const short = posts.shortTokens.get(p.input_token ?? "");
    const expiresAt = t?.expiresAt ?? short ?? 0;
    return ok({
      data: {
        type: "USER",
        application: "Example Bakery Posts",
        data_access_expires_at: Math.floor((posts.now() + 90 * DAY) / 1000),
        expires_at: Math.floor(expiresAt / 1000),
        is_valid: expiresAt > posts.now(),
        issued_at: Math.floor((t?.issuedAt ?? posts.now()) / 1000),
        scopes: ["threads_basic", "threads_content_publish", "threads_manage_insights", "threads_delete"],
        user_id: USER.id,
      },
    });
  });
  route("GET", "/refresh_access_token", (req) => {
    const p = params(req);
    const t = posts.tokens.get(p.access_token ?? "");
    if (p.grant_type !== "th_refresh_token" || !t || t.expiresAt < posts.now())
      graphError(400, 190, "Invalid OAuth access token: refresh a long-lived token that has not expired", "OAuthException", 467);
    // Long-lived tokens "at least 24 hours old" can be refreshed (Threads "Long-Lived Access Tokens").
    if (t.issuedAt > posts.now() - DAY)
      graphError(400, 190, "The access token cannot be refreshed: it is less than 24 hours old", "OAuthException");
    return longLived();
  });
}
