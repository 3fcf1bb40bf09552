/**
 * What the page-management and short-post services share: the `{error:{message,type,code,error_subcode,
 * fbtrace_id}}` envelope, parameters from the query or a form/JSON body, and usage headers as percentages.
 */
import { createHash } from "node:crypto";
import { HttpError, type Reply, type Request } from "./kit";

export function graphError(status: number, code: number, message: string, type = "OAuthException", subcode?: number): never {
  const fbtrace_id = createHash("md5").update(`${code}:${message}`).digest("base64url").slice(0, 11);
  throw new HttpError({ status, body: { error: { message, type, code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id } } });
}

/** Parameters from the query string, then a form-urlencoded or JSON body (the services accept all three). */
export function params(req: Request): Record<string, string> {
  const out: Record<string, string> = Object.fromEntries(req.query);
  const type = String(req.headers["content-type"] ?? "");
  if (req.form) return { ...out, ...req.form };
  if (!req.rawBody) return out;
  if (type.includes("application/json")) {
    try {
      for (const [k, v] of Object.entries(JSON.parse(req.rawBody))) out[k] = typeof v === "string" ? v : JSON.stringify(v);
    } catch {
      graphError(400, 100, "(#100) The request body is not valid JSON", "GraphMethodException");
    }
  } else {
    for (const [k, v] of new URLSearchParams(req.rawBody)) out[k] = v;
  }
  return out;
}

/** `{"call_count":..,"total_cputime":..,"total_time":..}` as whole percentages of an allowance. */
export function usageHeader(used: number, allowance: number): string {
  const pct = Math.min(100, Math.round((used / allowance) * 100));
  return JSON.stringify({ call_count: pct, total_cputime: Math.round(pct / 2), total_time: Math.round(pct / 2) });
}

export const ok = (body: unknown): Reply => ({ status: 200, body });

/** A list parameter as the services take it: a JSON array (`["a","b"]`, what the official SDKs send) or a comma list. */
export function listParam(raw: string | undefined): string[] {
  if (!raw) return [];
  if (raw.trim().startsWith("[")) {
    try {
      return (JSON.parse(raw) as unknown[]).map(String);
    } catch {
      graphError(400, 100, "(#100) A list parameter is not valid JSON");
    }
  }
  return raw
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
}
