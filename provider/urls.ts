/** The URL settings as they are written (`host:port`, `:port`, a URL with or without its scheme), read and checked. */
/** `host:port` or a URL, as RUNNER_HOST takes it. */
export function runnerUrl(host: string): string {
  // As the runner's own client reads OLLAMA_HOST (envconfig.Host, then ConnectableHost): without a scheme, http and
  // port 11434 (`ollama.com`: https, 443); with one, that scheme's port; a path kept; a bare IPv6 address taken as an
  // address; a listen-on-all address reached on the loopback.
  const s = host.trim();
  let [scheme, hostport] = s.includes("://") ? [s.slice(0, s.indexOf("://")), s.slice(s.indexOf("://") + 3)] : ["http", s];
  let defaultPort = s.includes("://") ? (scheme === "https" ? "443" : scheme === "http" ? "80" : "11434") : "11434";
  if (s === "ollama.com") [scheme, hostport, defaultPort] = ["https", "ollama.com:443", "443"];
  const slash = hostport.indexOf("/");
  const path = slash >= 0 ? hostport.slice(slash) : "";
  if (slash >= 0) hostport = hostport.slice(0, slash);
  let name: string;
  let port: string;
  const bracketed = /^\[([^\]]+)\](?::(\d*))?$/.exec(hostport);
  const colons = (hostport.match(/:/g) ?? []).length;
  if (bracketed) [name, port] = [bracketed[1], bracketed[2] || defaultPort];
  else if (colons === 1) [name, port] = hostport.split(":") as [string, string];
  else [name, port] = [hostport || "127.0.0.1", defaultPort]; // a bare IPv6 address (several colons), or a host alone
  if (!/^\d+$/.test(port) || Number(port) > 65535) port = defaultPort;
  if (name === "" || name === "0.0.0.0") name = "127.0.0.1";
  if (name === "::") name = "::1";
  const u = new URL(`${scheme}://${name.includes(":") ? `[${name}]` : name}:${port}`);
  return `${u.protocol}//${u.host}${path.replace(/\/+$/, "")}`;
}

/** ops:runnerHost is host, host:port, :port or an http(s) URL. */
export function runnerHostProblem(raw: string): boolean {
  try {
    return !/^https?:\/\//.test(runnerUrl(raw)) || /\s/.test(raw);
  } catch {
    return true;
  }
}

/** An http(s) URL with its scheme: `new URL("localhost:8300")` parses, as the scheme "localhost:". */
export function isHttpUrl(raw: string): boolean {
  try {
    return /^https?:$/.test(new URL(raw).protocol) && /^https?:\/\//i.test(raw);
  } catch {
    return false;
  }
}

export const notAUrl = (where: string, raw: string) =>
  `${where} must be an http(s) URL such as https://host.example, with its scheme; got "${raw}"`;
