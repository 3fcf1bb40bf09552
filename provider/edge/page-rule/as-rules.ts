/**
 * A page rule written as the ruleset-engine rules that do the same (the service's page-rules migration guide), for
 * `pulumi-ops import --page-rules-as-rules`: a redirect rule for a forwarding URL or Always Use HTTPS, one cache rule
 * for its cache settings, one configuration rule for its per-URL settings. The URL pattern becomes an expression on
 * the host and path. Actions with no rule equivalent are named, never guessed.
 */
import { expressionFor } from "../rate-limit/rule";

/** One RulesetRule's inputs (zone, phase, expression, action, parameters, description). */
export interface RuleInputs {
  zoneName: string;
  phase: string;
  expression: string;
  action: string;
  actionParameters: Record<string, unknown>;
  description: string;
}

/** Settings a configuration rule takes (by the page rule's name unless said), and how a page rule's value reads there. */
const CONFIG: Record<string, (v: unknown) => unknown> = {
  automatic_https_rewrites: (v) => v === "on",
  browser_check: (v) => v === "on", // written as `bic`, the configuration rule's name for Browser Integrity Check
  email_obfuscation: (v) => v === "on",
  rocket_loader: (v) => v === "on",
  security_level: (v) => v,
  ssl: (v) => v,
  disable_apps: () => true,
};

/**
 * The rules for a page rule of `zoneName` matching `target` with `actions`, and the actions no rule does the same
 * (named for the user to look at).
 */
export function pageRuleAsRules(
  zoneName: string,
  target: string,
  actions: { id: string; value?: unknown }[],
  label: string,
): { rules: RuleInputs[]; unconverted: string[] } {
  const expression = expressionFor(target.replace(/^https?:\/\//, ""));
  const rules: RuleInputs[] = [];
  const unconverted: string[] = [];
  const cache: Record<string, unknown> = {};
  const config: Record<string, unknown> = {};
  for (const a of actions) {
    if (a.id === "forwarding_url") {
      const { url, status_code } = a.value as { url: string; status_code: number };
      rules.push({
        zoneName,
        phase: "http_request_dynamic_redirect",
        expression,
        action: "redirect",
        actionParameters: { from_value: { target_url: targetUrl(target, url), status_code, preserve_query_string: false } },
        description: `${label}: forwarding_url`,
      });
    } else if (a.id === "always_use_https") {
      rules.push({
        zoneName,
        phase: "http_request_dynamic_redirect",
        expression: `(${expression}) and not ssl`,
        action: "redirect",
        actionParameters: {
          from_value: {
            target_url: { expression: 'concat("https://", http.host, http.request.uri.path)' },
            status_code: 301,
            preserve_query_string: true,
          },
        },
        description: `${label}: always_use_https`,
      });
    } else if (a.id === "cache_level" && (a.value === "cache_everything" || a.value === "bypass")) {
      cache.cache = a.value === "cache_everything";
    } else if (a.id === "edge_cache_ttl") {
      cache.edge_ttl = { mode: "override_origin", default: a.value };
    } else if (a.id === "browser_cache_ttl") {
      cache.browser_ttl = a.value === 0 ? { mode: "respect_origin" } : { mode: "override_origin", default: a.value };
    } else if (CONFIG[a.id]) {
      config[a.id === "browser_check" ? "bic" : a.id] = CONFIG[a.id](a.value);
    } else {
      unconverted.push(a.value === undefined ? a.id : `${a.id}: ${JSON.stringify(a.value)}`);
    }
  }
  if (Object.keys(cache).length)
    rules.push({
      zoneName,
      phase: "http_request_cache_settings",
      expression,
      action: "set_cache_settings",
      actionParameters: cache,
      description: `${label}: cache`,
    });
  if (Object.keys(config).length)
    rules.push({
      zoneName,
      phase: "http_config_settings",
      expression,
      action: "set_config",
      actionParameters: config,
      description: `${label}: settings`,
    });
  return { rules, unconverted };
}

/**
 * A forwarding URL as a redirect's target: the URL itself, or, where it uses the pattern's wildcards (`$1`, ...),
 * an expression that puts them in (`wildcard_replace` on the full URI; a pattern without a scheme gets `*://` in
 * front, which shifts the numbering by one).
 */
function targetUrl(target: string, url: string): { value: string } | { expression: string } {
  if (!/\$\d/.test(url)) return { value: url };
  const schemed = /^(\*|https?):\/\//.test(target);
  const pattern = schemed ? target : `*://${target}`;
  const shift = schemed ? 0 : 1;
  const replacement = url.replace(/\$(\d)/g, (_, n: string) => `\${${Number(n) + shift}}`);
  return { expression: `wildcard_replace(http.request.full_uri, "${pattern}", "${replacement}")` };
}
