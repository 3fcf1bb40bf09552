"""The edge emulator held to the official Python SDK (PyPI `cloudflare`) with strict response validation: every
answer is parsed into the models generated from the service's own schema, and an answer of another shape fails.
Drives every endpoint pulumi-ops uses. Usage: cloudflare_strict.py <base_url> <user_token> <account_token>
<account_id> <zone_id>. Prints one JSON line of what it saw; exits non-zero on the first failure."""
import json
import sys

import cloudflare
from cloudflare import Cloudflare
from cloudflare.types.rulesets.ruleset_create_response import Ruleset

base_url, user_token, account_token, account_id, zone_id = sys.argv[1:6]
strict = dict(base_url=base_url, max_retries=0, _strict_response_validation=True)
cf = Cloudflare(api_token=user_token, **strict)
acct = Cloudflare(api_token=account_token, **strict)
seen = {}


def as_ruleset(answer):
    """A ruleset answer: the SDK types these as `Union[Ruleset, Optional[object]]`, and pydantic's smart union then
    keeps a plain dict; validating it against the `Ruleset` model itself is what holds the emulator to the schema."""
    return Ruleset.model_validate(answer) if isinstance(answer, dict) else answer


# Tokens: each kind verifies at its own endpoint; the user endpoint refuses an account-owned token with 401/1000.
seen["user_token"] = cf.user.tokens.verify().status
seen["account_token"] = acct.accounts.tokens.verify(account_id=account_id).status
try:
    acct.user.tokens.verify()
    seen["account_token_at_user_endpoint"] = "accepted"
except cloudflare.AuthenticationError as e:
    seen["account_token_at_user_endpoint"] = e.status_code

# Zones and their plan.
zone = cf.zones.get(zone_id=zone_id)
seen["zone"] = [zone.name, zone.plan.legacy_id if zone.plan else None]
seen["zones"] = [z.name for z in cf.zones.list(per_page=5)]

# Settings of several value types.
seen["ssl"] = cf.zones.settings.get(setting_id="ssl", zone_id=zone_id).value
seen["browser_cache_ttl"] = cf.zones.settings.edit(setting_id="browser_cache_ttl", zone_id=zone_id, value=3600).value

# DNS: a long TXT value (split by the service), the batch endpoint, one record read, delete.
long_txt = "v=DKIM1; p=" + "A" * 389
made = cf.dns.records.create(zone_id=zone_id, type="TXT", name="sel._domainkey", content=long_txt, ttl=300)
seen["txt_strings"] = len(made.content.split('" "'))
batch = cf.dns.records.batch(zone_id=zone_id, posts=[{"type": "A", "name": "b1", "content": "203.0.113.1", "ttl": 300}])
seen["batch_posts"] = len(batch.posts or [])
seen["record"] = cf.dns.records.get(dns_record_id=made.id, zone_id=zone_id).type
seen["records"] = sum(1 for _ in cf.dns.records.list(zone_id=zone_id, per_page=100))
cf.dns.records.delete(dns_record_id=made.id, zone_id=zone_id)

# The rulesets engine: the entry point absent, made with a rule, rules added, edited, deleted; rate limiting rules.
try:
    cf.rulesets.phases.get("http_request_firewall_custom", zone_id=zone_id)
    seen["entrypoint_before"] = "present"
except cloudflare.NotFoundError:
    seen["entrypoint_before"] = 404
rs = as_ruleset(cf.rulesets.create(kind="zone", name="custom", phase="http_request_firewall_custom", zone_id=zone_id, rules=[{"action": "block", "expression": "ip.src eq 203.0.113.1", "ref": "first"}]))
added = as_ruleset(cf.rulesets.rules.create(rs.id, zone_id=zone_id, action="skip", expression="ip.src eq 203.0.113.2", action_parameters={"ruleset": "current"}))
rule_id = added.rules[-1].id
edited = as_ruleset(cf.rulesets.rules.edit(rule_id, ruleset_id=rs.id, zone_id=zone_id, action="managed_challenge", expression="ip.src eq 203.0.113.2"))
seen["edited"] = [r.action for r in edited.rules]
after = as_ruleset(cf.rulesets.rules.delete(rule_id, ruleset_id=rs.id, zone_id=zone_id))
seen["after_delete"] = [r.ref for r in after.rules]
seen["entrypoint"] = len(as_ruleset(cf.rulesets.phases.get("http_request_firewall_custom", zone_id=zone_id)).rules)
# One ruleset by id (read before a rule's PATCH, which replaces the rule's whole definition).
seen["ruleset_by_id"] = len(as_ruleset(cf.rulesets.get(rs.id, zone_id=zone_id)).rules)
rl = as_ruleset(cf.rulesets.phases.update("http_ratelimit", zone_id=zone_id, rules=[{
    "action": "block", "expression": 'http.request.uri.path wildcard "/login*"',
    "ratelimit": {"characteristics": ["cf.colo.id", "ip.src"], "period": 10, "requests_per_period": 20, "mitigation_timeout": 10},
}]))
seen["ratelimit"] = [rl.rules[0].ratelimit.period, rl.rules[0].ratelimit.requests_per_period]

# Page rules and edge scripts (listing, settings).
seen["pagerules"] = len(cf.page_rules.list(zone_id=zone_id))
seen["scripts"] = sorted(s.id for s in cf.workers.scripts.list(account_id=account_id))

# How a script is reached (routes, custom domains, workers.dev) and its secrets.
route = cf.workers.routes.create(zone_id=zone_id, pattern="example.com/app/*", script="sw")
route = cf.workers.routes.update(route.id, zone_id=zone_id, pattern="example.com/sw/*", script="sw")
seen["routes"] = [r.pattern for r in cf.workers.routes.list(zone_id=zone_id)]
seen["route_script"] = cf.workers.routes.get(route.id, zone_id=zone_id).script
cf.workers.routes.delete(route.id, zone_id=zone_id)
domain = cf.workers.domains.update(account_id=account_id, hostname="api.example.com", service="sw", zone_id=zone_id)
seen["domain"] = [d.service for d in cf.workers.domains.list(account_id=account_id, hostname="api.example.com")]
seen["domain_record"] = [(r.type, r.content) for r in cf.dns.records.list(zone_id=zone_id, name={"exact": "api.example.com"})]
seen["domain_get"] = cf.workers.domains.get(domain.id, account_id=account_id).hostname
cf.workers.domains.delete(domain.id, account_id=account_id)
seen["subdomain"] = cf.workers.scripts.subdomain.create("sw", account_id=account_id, enabled=True, previews_enabled=False).enabled
seen["subdomain_get"] = cf.workers.scripts.subdomain.get("sw", account_id=account_id).previews_enabled
cf.workers.scripts.secrets.update("sw", account_id=account_id, name="API_KEY", text="s3cret", type="secret_text")
seen["secrets"] = [x.name for x in cf.workers.scripts.secrets.list("sw", account_id=account_id)]
cf.workers.scripts.secrets.delete("API_KEY", account_id=account_id, script_name="sw")

# Workers KV namespaces (issue 61): made by title, listed, renamed in place, deleted.
ns = cf.kv.namespaces.create(account_id=account_id, title="sessions")
cf.kv.namespaces.update(ns.id, account_id=account_id, title="sessions-v2")
seen["kv"] = [(n.title, n.id == ns.id) for n in cf.kv.namespaces.list(account_id=account_id)]
seen["kv_get"] = cf.kv.namespaces.get(ns.id, account_id=account_id).title
cf.kv.namespaces.delete(ns.id, account_id=account_id)

# R2 buckets and D1 databases (issue 61).
bucket = cf.r2.buckets.create(account_id=account_id, name="site-files", location_hint="weur", storage_class="Standard")
seen["r2"] = [bucket.name, bucket.storage_class, [b.name for b in cf.r2.buckets.list(account_id=account_id).buckets]]
cf.r2.buckets.delete("site-files", account_id=account_id)
db = cf.d1.database.create(account_id=account_id, name="site-orders", primary_location_hint="weur")
cf.d1.database.query(db.uuid, account_id=account_id, sql="create table orders (id integer, item text)")
seen["d1"] = [db.name, cf.d1.database.get(db.uuid, account_id=account_id).num_tables]
cf.d1.database.delete(db.uuid, account_id=account_id)

print(json.dumps(seen))
