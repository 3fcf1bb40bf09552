/**
 * Every setting the provider reads, by service: its stack config key (`ops:<name>`), its environment variables, its
 * default and what it takes. The docs' configuration tables and schema.json's provider inputs are generated from
 * these; config.ts reads them.
 */
import { settings, type Setting } from "./setting";
import { EDGE_SETTINGS } from "./edge/settings";
import { PAGES_SETTINGS } from "./pages/settings";
import { POSTS_SETTINGS } from "./posts/settings";
import { RUNNER_SETTINGS } from "./runner/settings";
import { SKILLS_SETTINGS } from "./skills/settings";
import { CONTROL_SETTINGS } from "./control/settings";

export type { Setting } from "./setting";
export { EDGE_SETTINGS, PAGES_SETTINGS, POSTS_SETTINGS, RUNNER_SETTINGS, SKILLS_SETTINGS, CONTROL_SETTINGS };

/** Settings of the provider itself. */
export const GENERAL_SETTINGS = settings("", {
  quiet: {
    env: "PULUMI_OPS_QUIET",
    default: "false",
    description: "`true` (or `1`): no progress lines and no warnings from pulumi-ops; failures are still shown.",
  },
  adoptFromStack: {
    env: "PULUMI_OPS_ADOPT_FROM_STACK",
    description:
      "For a run that takes over objects another stack labelled as its own (a skill's `pulumi-ops-stack` metadata, a Worker's or a paid zone's record's `pulumi-ops-stack:` tag): that stack's `<project>/<stack>`. Adopting resources then take them (they become this stack's, and the other stack's destroy leaves them); a runner model, which carries no label, is refused instead, naming how that stack lets go. Unset it afterwards.",
  },
  maxDeletes: {
    env: "PULUMI_OPS_MAX_DELETES",
    range: [0, 10_000_000],
    description:
      "The most DNS records one run may delete, across the stack's DnsRecords and DnsRecordSets (removed keys, type changes, authoritative removals, resources deleted). Unset: no limit. A set's own planned deletes fail its preview; those of resources removed from the program are counted at up, before the first one past the limit is sent. A destroy runs with the config the last up left.",
  },
  acknowledgedWarnings: {
    env: "PULUMI_OPS_ACKNOWLEDGED_WARNINGS",
    description:
      "Warning kinds this stack has read and acts on knowingly, comma-separated (`page-rules-deprecated`, `posts-token-expiry`, ...: each warning that has a kind names it): those are no longer shown; every other warning still is, once per command.",
  },
  previewChecks: {
    env: "PULUMI_OPS_PREVIEW_CHECKS",
    default: "true",
    bool: true,
    description:
      "A preview asks each service the program uses one read (token verification, the runner's model list, ...), so that a bad token or an unreachable endpoint fails the preview; `false` for offline previews.",
  },
});

/** Every setting, in the order the docs list them. */
export const ALL_SETTINGS: Setting[] = [
  GENERAL_SETTINGS,
  EDGE_SETTINGS,
  PAGES_SETTINGS,
  POSTS_SETTINGS,
  RUNNER_SETTINGS,
  SKILLS_SETTINGS,
  CONTROL_SETTINGS,
].flatMap((t) => Object.values(t));

/** The stack config key of the named accounts: an object of accounts, each an object of settings by name. */
export const ACCOUNTS_KEY = "ops:accounts";

/**
 * Settings a release had and a later one retired. A stack keeps its config when it upgrades, so such a key is named
 * in one warning (the release that retired it, what replaces it, and how to remove it) and never fails a check; only
 * a key no release ever had is "not a pulumi-ops setting". test/unit/retired-settings.test.ts holds every release's
 * settings (test/fixtures/settings-by-release.json) to this list, so that no removal breaks a stack again.
 */
export const RETIRED_SETTINGS: Record<string, { since: string; instead: string }> = {
  "ops:postsAppToken": {
    since: "0.5.0",
    instead:
      "it held the app token of WebhookSubscription, and the short-post service has no API for webhook subscriptions (they are set up in its app dashboard); nothing replaces it",
  },
};

/** The one line a retired setting gets. */
export function retiredSettingLine(key: string): string {
  const r = RETIRED_SETTINGS[key];
  return `${key} was retired in pulumi-ops ${r.since} and is ignored: ${r.instead}. Remove it from the stack's config: pulumi config rm ${key}`;
}
