/**
 * An MCP server behind OAuth (the authorization spec of 2025-06-18 on, RFC 9728): a 401 carries
 * `WWW-Authenticate: Bearer resource_metadata="…/.well-known/oauth-protected-resource", scope="…"`, and the protected
 * resource metadata names the authorization servers and the scopes; a 403 with `error="insufficient_scope"` names the
 * scope a token lacks. The refusal is turned into one line naming where to get a token and which scope to ask for.
 */
import { AuthError } from "../http/errors";

/** The parameters of a `Bearer` challenge: `resource_metadata`, `scope`, `error`, `error_description`, `realm`. */
export function bearerChallenge(header: string | string[] | undefined): Record<string, string> | undefined {
  const raw = Array.isArray(header) ? header.join(", ") : header;
  if (!raw || !/^\s*bearer\b/i.test(raw)) return undefined;
  const out: Record<string, string> = {};
  for (const m of raw.replace(/^\s*bearer\s*/i, "").matchAll(/([a-z_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/gi))
    out[m[1].toLowerCase()] = (m[2] ?? m[3]).replace(/\\(.)/g, "$1");
  return out;
}

interface ResourceMetadata {
  resource?: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
}

/** The protected resource metadata the challenge points at; undefined when it cannot be read (said as unknown). */
async function resourceMetadata(url: string | undefined, timeoutMs: number): Promise<ResourceMetadata | undefined> {
  if (!url) return undefined;
  try {
    const res = await fetch(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(timeoutMs) });
    return res.ok ? ((await res.json()) as ResourceMetadata) : undefined;
  } catch {
    return undefined;
  }
}

/** A 401 or 403 of the endpoint as one line: what it wants, from where, with which scope, and the setting to set. */
export async function authRefusal(
  status: number,
  header: string | string[] | undefined,
  hadToken: boolean,
  timeoutMs: number,
): Promise<AuthError> {
  const challenge = bearerChallenge(header);
  const meta = await resourceMetadata(challenge?.resource_metadata, timeoutMs);
  const scope = challenge?.scope ?? meta?.scopes_supported?.join(" ");
  const from = meta?.authorization_servers?.[0];
  const where = [
    from ? `from ${from}` : challenge?.resource_metadata ? `from the authorization server ${challenge.resource_metadata} names` : "",
    scope ? `with scope "${scope}"` : "",
  ]
    .filter(Boolean)
    .join(" ");
  if (status === 403 || challenge?.error === "insufficient_scope") {
    return new AuthError({
      service: "control",
      status,
      message: `the endpoint refused the token: ${challenge?.error ?? "forbidden"}${challenge?.error_description ? ` (${challenge.error_description})` : ""}`,
      remedy: `Get a token ${where || "with the scope the endpoint asks for"} and set it as ops:controlToken (CONTROL_TOKEN)`,
    });
  }
  const what = challenge?.resource_metadata ? "an OAuth access token (its protected resource metadata says where)" : "a bearer token";
  return new AuthError({
    service: "control",
    status,
    message: `the endpoint wants ${what}${hadToken ? `, and refused the one given${challenge?.error ? ` (${challenge.error})` : ""}` : ""}`,
    remedy: `${where ? `Get a token ${where}, then set` : "Set"} it as ops:controlToken (CONTROL_TOKEN)`,
  });
}
