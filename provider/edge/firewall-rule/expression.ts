/**
 * What can be proven wrong in a firewall rule expression before it is sent: unbalanced quotes, braces or
 * parentheses; addresses and CIDRs inside `ip.src in {...}` (and `ip.src eq <address>`); fields outside the
 * common set. Anything subtler is left to the service.
 */
import { isIP } from "node:net";

export const FIELDS = new Set([
  "cf.bot_management.score",
  "cf.bot_management.verified_bot",
  "cf.client.bot",
  "cf.edge.server_port",
  "cf.threat_score",
  "http.cookie",
  "http.host",
  "http.referer",
  "http.request.full_uri",
  "http.request.method",
  "http.request.uri",
  "http.request.uri.path",
  "http.request.uri.query",
  "http.request.version",
  "http.user_agent",
  "http.x_forwarded_for",
  "ip.geoip.asnum",
  "ip.geoip.continent",
  "ip.geoip.country",
  "ip.geoip.is_in_european_union",
  "ip.geoip.subdivision_1_iso_code",
  "ip.src",
  "ip.src.asnum",
  "ip.src.country",
  "raw.http.request.uri",
  "raw.http.request.uri.path",
  "ssl",
]);

function validAddressOrCidr(item: string): boolean {
  const [addr, bits, extra] = item.split("/");
  const family = isIP(addr);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n >= 0 && n <= (family === 4 ? 32 : 128);
}

/** `knownFields: false` skips the check of fields (the other phases have fields of their own, e.g. http.response.code). */
export function expressionProblems(expression: string, o: { knownFields?: boolean } = {}): string[] {
  const problems: string[] = [];
  if (!expression.trim()) return ["the expression is empty"];
  if (expression.length > 4096) return ["the expression must be at most 4096 characters"];
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(expression)) return ["the expression contains control characters"];

  // One pass: strings are skipped (their text is opaque), brackets must pair up.
  const stack: string[] = [];
  let bare = "";
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i];
    if (c === '"') {
      const end = expression.slice(i + 1).search(/(?<!\\)"/);
      if (end < 0) {
        problems.push(`unbalanced quote: the string starting at character ${i + 1} never ends`);
        return problems;
      }
      bare += ' "" ';
      i += end + 1;
      continue;
    }
    if (c === "(" || c === "{") stack.push(c);
    if (c === ")" || c === "}") {
      const open = stack.pop();
      if (open !== (c === ")" ? "(" : "{")) {
        problems.push(`unbalanced "${c}" at character ${i + 1}`);
        return problems;
      }
    }
    bare += c;
  }
  if (stack.length) problems.push(`unbalanced "${stack[stack.length - 1]}": it is never closed`);

  for (const m of bare.matchAll(/\bip\.src\s+in\s+\{([^}]*)\}/g)) {
    for (const item of m[1].trim().split(/\s+/).filter(Boolean)) {
      if (!validAddressOrCidr(item)) problems.push(`"${item}" in ip.src in {...} is not an IP address or CIDR`);
    }
  }
  for (const m of bare.matchAll(/\bip\.src\s+(?:eq|==|ne|!=)\s+([^\s)]+)/g)) {
    if (!validAddressOrCidr(m[1])) problems.push(`"${m[1]}" compared with ip.src is not an IP address`);
  }
  if (o.knownFields === false) return problems;
  for (const m of bare.matchAll(/(?<![\w.])([a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)+)(?![\w.])/gi)) {
    if (!FIELDS.has(m[1]) && !/^\d/.test(m[1]))
      problems.push(`unknown field "${m[1]}": use one of the common fields such as ip.src, http.host, http.request.uri.path`);
  }
  return problems;
}
