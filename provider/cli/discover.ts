/**
 * What `pulumi-ops import` finds on the services: a zone's records, rules and settings changed from their defaults,
 * its Workers, the runner's models, the registry's (or the Claude API's) skills — each as the type, the id the
 * provider reads it by, and a name for it in the program.
 */

/** A resource the program will declare, as import writes it. */
export interface Written {
  type: string;
  name: string;
  inputs: object;
}

/** The settings every zone's program gets, changed or not: the ones the docs show first. */
const DOCUMENTED_SETTINGS = ["ssl", "always_use_https", "security_level"];

/** One object found: its type, the id the provider reads it by, and a name for it in the program. */
export interface Found {
  type: string;
  id: string;
  name: string;
  /** Inputs made here rather than from the provider's read (a script, whose code goes into a file). */
  inputs?: Record<string, unknown>;
  /** Files to write beside the program, by path relative to it (a script's code). */
  files?: Record<string, string>;
  /** Taken over by its `adopt` alone: `pulumi import --file` cannot give its inputs (a Claude skill's files). */
  notImportable?: boolean;
}

export async function zoneObjects(zoneName: string, asRules?: Written[]): Promise<Found[]> {
  const { edge, resolveZone } = await import("../edge/zones");
  const { FIREWALL_PHASE, RATE_LIMIT_PHASE } = await import("../edge/rulesets");
  const zone = await resolveZone({ zoneName });
  const client = edge();
  const found: Found[] = [];
  for await (const r of client.dnsRecords(zone.id)) {
    // The service's own records (a Worker's custom domain's) come with their WorkerDomain, not as records.
    if (r.meta?.read_only) continue;
    found.push({
      type: "edge:DnsRecord",
      id: `${zone.id}/${r.id}`,
      name: `${r.type}-${r.name === zone.name ? "apex" : r.name.replace(`.${zone.name}`, "")}`,
    });
  }
  for (const r of await client.listPageRules(zone.id)) {
    if (!asRules) {
      found.push({ type: "edge:PageRule", id: `${zone.id}/${r.id}`, name: `page-rule-${r.priority ?? r.id}` });
      continue;
    }
    // The rules that do the same (page-rule/as-rules.ts), written new; the page rule stays until the user deletes it.
    const { pageRuleAsRules } = await import("../edge/page-rule/as-rules");
    const target = r.targets[0].constraint.value;
    const { rules, unconverted } = pageRuleAsRules(zone.name, target, r.actions, `page rule ${target}`);
    for (const inputs of rules)
      asRules.push({
        type: "edge:RulesetRule",
        name: `${inputs.phase.replace(/^http_(request_|response_)?/, "").replace(/_settings$/, "")}-${target}`,
        inputs,
      });
    console.log(
      `pulumi-ops import: page rule ${target} written as ${rules.length} RulesetRule${rules.length === 1 ? "" : "s"}${unconverted.length ? `; no rule does the same for: ${unconverted.join(", ")} (developers.cloudflare.com/rules/reference/page-rules-migration/)` : ""}; the page rule stays on the service: delete it once the new rules do its job`,
    );
  }
  // WAF custom rules (the rulesets engine; the legacy firewall rules were converted into them).
  for (const r of (await client.entrypoint(zone.id, FIREWALL_PHASE))?.rules ?? [])
    found.push({ type: "edge:FirewallRule", id: `${zone.id}/${r.id}`, name: `firewall-${r.description || r.ref || r.id}` });
  // Rate limiting rules whose expression a URL pattern can say (host, path, methods); the others are named, not guessed.
  const { matchFromExpression } = await import("../edge/rate-limit/rule");
  for (const r of (await client.entrypoint(zone.id, RATE_LIMIT_PHASE))?.rules ?? []) {
    if (matchFromExpression(r.expression))
      found.push({ type: "edge:RateLimit", id: `${zone.id}/${r.id}`, name: `rate-limit-${r.description || r.ref || r.id}` });
    else
      console.log(
        `pulumi-ops import: ${zone.name}'s rate limiting rule ${r.ref ?? r.id} (${r.expression}) is not written: a RateLimit matches a URL pattern, and this expression is not one`,
      );
  }
  // The rules of the other phases (cache, redirect, transform, origin, configuration, ...), one RulesetRule each.
  const { PHASE_ACTIONS } = await import("../edge/ruleset-rule/schema");
  for (const phase of Object.keys(PHASE_ACTIONS).filter((p) => p !== FIREWALL_PHASE && p !== RATE_LIMIT_PHASE)) {
    let rules;
    try {
      rules = (await client.entrypoint(zone.id, phase))?.rules ?? [];
    } catch (e) {
      console.log(`pulumi-ops import: ${zone.name}'s ${phase} rules are not written: reading them failed (${(e as Error).message})`);
      continue;
    }
    for (const r of rules)
      found.push({
        type: "edge:RulesetRule",
        id: `${zone.id}/${phase}/${r.id}`,
        name: `${phase.replace(/^http_(request_|response_)?/, "")}-${r.description || r.ref || r.id}`,
      });
  }
  // The settings the API document names, and every other setting whose value is not a new zone's (known.ts).
  for (const id of [...DOCUMENTED_SETTINGS, ...(await changedSettings(zone.id))])
    found.push({ type: "edge:ZoneSetting", id: `${zone.id}/${id}`, name: `setting-${id}` });
  found.push(...(await workerObjects(zone)));
  return found;
}

/** The zone's editable settings whose value differs from a new zone's; none where the listing is not answered. */
async function changedSettings(zoneId: string): Promise<string[]> {
  const { edge } = await import("../edge/zones");
  const { DEFAULT_VALUES, valueKey } = await import("../edge/zone-setting/known");
  try {
    const all = await edge().listSettings(zoneId);
    return all
      .filter(
        (s) =>
          !DOCUMENTED_SETTINGS.includes(s.id) &&
          s.editable !== false &&
          s.id in DEFAULT_VALUES &&
          valueKey(s.value) !== valueKey(DEFAULT_VALUES[s.id]),
      )
      .map((s) => s.id);
  } catch (e) {
    console.log(
      `pulumi-ops import: the zone's settings listing was not answered (${(e as Error).message.split("\n")[0]}); only ${DOCUMENTED_SETTINGS.join(", ")} are written`,
    );
    return [];
  }
}

/**
 * What serves the zone: its routes, the account's custom domains in it, and the scripts they run, each script's
 * code written to `workers/<name>.js` beside the program with its compatibility date, flags, plain-text variables,
 * bindings and workers.dev switch, and the KV namespaces, R2 buckets and D1 databases it is bound to (each once).
 * Secrets cannot be read back (the service never shows their text): they are left on the script, named in the output.
 */
async function workerObjects(zone: { id: string; name: string }): Promise<Found[]> {
  const { edge } = await import("../edge/zones");
  const client = edge();
  const found: Found[] = [];
  let routes: Awaited<ReturnType<typeof client.listWorkerRoutes>> = [];
  try {
    routes = await client.listWorkerRoutes(zone.id);
  } catch (e) {
    console.log(
      `pulumi-ops import: ${zone.name}'s Worker routes are not written: reading them failed (${(e as Error).message.split("\n")[0]})`,
    );
  }
  for (const r of routes) found.push({ type: "edge:WorkerRoute", id: `${zone.id}/${r.id}`, name: `route-${r.pattern}` });
  const accountId = client.accountId ?? (await client.getZone(zone.id)).account?.id;
  if (!accountId) return found;
  const domains = await client.listWorkerDomains(accountId, { zone_id: zone.id }).catch(() => []);
  for (const d of domains) found.push({ type: "edge:WorkerDomain", id: `${accountId}/${d.id}`, name: `domain-${d.hostname}` });
  const scripts = [...new Set([...routes.map((r) => r.script), ...domains.map((d) => d.service)].filter((x): x is string => !!x))];
  const { fromWire } = await import("../edge/worker-script/bindings");
  const storage = new Map<string, Found>();
  for (const name of scripts) {
    const body = await client.getWorkerScript(accountId, name);
    if (body === undefined) continue; // a route naming a script that is gone
    const settings = await client.getWorkerScriptSettings(accountId, name);
    const sub = await client.getWorkerSubdomain(accountId, name).catch(() => undefined);
    const vars = Object.fromEntries((settings.bindings ?? []).filter((b) => b.type === "plain_text").map((b) => [b.name, b.text ?? ""]));
    const secrets = (settings.bindings ?? []).filter((b) => b.type === "secret_text").map((b) => b.name);
    const bindings = (settings.bindings ?? []).flatMap((b) => {
      const read = fromWire(b);
      return read ? [read] : [];
    });
    for (const b of bindings) {
      const of =
        b.type === "kv_namespace"
          ? { type: "edge:KvNamespace", id: `${accountId}/${b.namespaceId}`, name: `kv-${b.name}` }
          : b.type === "r2_bucket"
            ? { type: "edge:R2Bucket", id: `${accountId}/${b.jurisdiction ?? "default"}/${b.bucketName}`, name: `bucket-${b.bucketName}` }
            : b.type === "d1"
              ? { type: "edge:D1Database", id: `${accountId}/${b.databaseId}`, name: `database-${b.name}` }
              : undefined;
      if (of && !storage.has(of.id)) storage.set(of.id, of);
    }
    const file = `workers/${name}.js`;
    found.push({
      type: "edge:WorkerScript",
      id: `${accountId}/${name}`,
      name: `script-${name}`,
      files: { [file]: body },
      inputs: {
        accountId,
        name,
        source: file,
        compatibilityDate: settings.compatibility_date ?? "2021-11-02",
        ...(settings.compatibility_flags?.length ? { compatibilityFlags: settings.compatibility_flags } : {}),
        ...(Object.keys(vars).length ? { vars } : {}),
        ...(bindings.length ? { bindings } : {}),
        ...(sub ? { workersDev: sub.enabled } : {}),
        adopt: true,
      },
    });
    if (secrets.length)
      console.log(
        `pulumi-ops import: the script ${name}'s secrets (${secrets.join(", ")}) stay on it as they are: the service never shows their text; give them as \`secrets\` to manage them`,
      );
  }
  return [...found, ...storage.values()];
}

export async function runnerObjects(): Promise<Found[]> {
  const { runner } = await import("../runner/client");
  return (await runner().list()).map((m) => ({ type: "runner:RunnerModel", id: m.name, name: `model-${m.name}` }));
}

export async function skillObjects(): Promise<Found[]> {
  const { read, SKILLS_SETTINGS } = await import("../config");
  if (read(SKILLS_SETTINGS.kind) === "claude") return claudeSkillObjects();
  const { skills } = await import("../skills/client");
  return (await skills().search("")).map((s) => ({ type: "skills:Skill", id: s.slug, name: s.slug }));
}

/**
 * The workspace's own skills on the Claude API (ops:skillsKind claude), each as a Skill with `adopt: true` whose
 * `source` is a folder written here with a SKILL.md of its newest version's name and description. The API gives no
 * version's files back (outside its beta namespace): the folder is the place for the skill's files, and the first up
 * uploads it as the skill's newest version. Said for each.
 */
async function claudeSkillObjects(): Promise<Found[]> {
  const { claudeSkills, IMPORT_PLACEHOLDER } = await import("../skills/claude");
  const { NAME } = await import("../skills/document");
  const found: Found[] = [];
  for (const s of await claudeSkills().listCustom()) {
    const v = await claudeSkills().version(s.id, "latest");
    const folder = `skills/${v.name}`;
    const doc = `---\nname: ${v.name}\ndescription: ${JSON.stringify(v.description)}\n---\n\n${IMPORT_PLACEHOLDER}\n# ${v.name}\n\nReplace this folder with the skill's own files before the first \`pulumi up\`: the Claude API does not give a version's files back, and up uploads this folder as the skill's newest version (the check refuses this placeholder).\n`;
    // The slug is the display name the skill is found by; a display name that is no slug cannot be one.
    if (!s.display_name || !NAME.test(s.display_name)) {
      console.log(
        `pulumi-ops import: Claude skill ${s.id}: its display name ${JSON.stringify(s.display_name ?? null)} is not a slug pulumi-ops can find it by; not written (rename it to ${v.name} in the console, then import again)`,
      );
      continue;
    }
    console.log(
      `pulumi-ops import: Claude skill ${s.id} ("${s.display_name}"): its files cannot be read back; put them in ${folder}/ before the first up, which uploads that folder as its newest version`,
    );
    found.push({
      type: "skills:Skill",
      id: s.id,
      name: v.name,
      inputs: { slug: s.display_name, source: `${folder}/SKILL.md`, adopt: true, followGuide: false },
      files: { [`${folder}/SKILL.md`]: doc },
      notImportable: true,
    });
  }
  return found;
}
