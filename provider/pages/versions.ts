/**
 * The page-management service's API versions (Graph API changelog, "Versions", checked 2026-11-25): each lives about
 * two years. A call to an expired version is answered as the oldest live version answers it, so a stack pinned to an
 * old version changes behaviour under its user each time one expires: the preview warns about it.
 */
import { PAGES_SETTINGS, read } from "../config";
import { ConfigError } from "../http/errors";

/** Release and expiry (`undefined`: not announced yet), by version. */
export const VERSIONS: Record<string, { released: string; expires?: string }> = {
  "v26.0": { released: "2026-07-29" },
  "v25.0": { released: "2026-02-18", expires: "2028-07-29" },
  "v24.0": { released: "2025-10-08", expires: "2028-02-18" },
  "v23.0": { released: "2025-05-29", expires: "2027-10-08" },
  "v22.0": { released: "2025-01-21", expires: "2027-05-20" },
  "v21.0": { released: "2024-10-02", expires: "2027-01-21" },
  "v20.0": { released: "2024-05-21", expires: "2026-09-24" },
  "v19.0": { released: "2024-01-23", expires: "2026-05-21" },
  "v18.0": { released: "2023-09-12", expires: "2026-01-26" },
  "v17.0": { released: "2023-05-23", expires: "2025-09-12" },
};
/** The version pulumi-ops speaks unless told: the newest released. */
export const DEFAULT_VERSION = "v26.0";
const WARN_DAYS = 90;
const DAY = 86_400_000;

export function pagesVersion(): string {
  const v = read(PAGES_SETTINGS.apiVersion) ?? DEFAULT_VERSION;
  if (!/^v\d+\.\d+$/.test(v)) throw new ConfigError(`ops:pagesApiVersion must be a version such as ${DEFAULT_VERSION}; got "${v}"`);
  return v;
}

/** The oldest version still live at `now`: what the service answers an expired version's calls with. */
export function oldestLive(now = Date.now()): string {
  const live = Object.entries(VERSIONS).filter(([, v]) => !v.expires || Date.parse(v.expires) > now);
  return live.sort((a, b) => Date.parse(a[1].released) - Date.parse(b[1].released))[0][0];
}

/** What a preview says of `version` at `now`: expired, or expiring within 90 days; undefined when it is fine (or newer than this table). */
export function versionWarning(version: string, now = Date.now()): string | undefined {
  const v = VERSIONS[version];
  if (!v?.expires) return undefined;
  const left = Date.parse(v.expires) - now;
  if (left <= 0) {
    return `pages: API version ${version} expired on ${v.expires}: the service answers its calls as the oldest live version (${oldestLive(now)}), which changes under this stack each time a version expires. Set ops:pagesApiVersion to ${DEFAULT_VERSION}`;
  }
  if (left <= WARN_DAYS * DAY) {
    return `pages: API version ${version} expires on ${v.expires} (in ${Math.ceil(left / DAY)} days); after that its calls are answered as another version's. Set ops:pagesApiVersion to ${DEFAULT_VERSION}`;
  }
  return undefined;
}
