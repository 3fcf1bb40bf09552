/** The edge emulator's options and its zones, as the routes of each topic see them. */
import type { LatencyProfile } from "../latency";
import type { RecordMap } from "./dns";
import type { Permission } from "./access";
import type { Plan } from "./rulesets";

export interface EdgeEmulatorOptions {
  port?: number;
  /** Zones present at start (and after reset). */
  zones?: string[];
  /** User API tokens: token -> permissions. They verify at `/user/tokens/verify`. */
  tokens?: Record<string, Permission[]>;
  /**
   * Account-owned API tokens (the kind the service recommends today; `cfat_...`): token -> permissions. They work on
   * every endpoint their permissions cover, but verify only at `/accounts/{account_id}/tokens/verify`: the user
   * endpoint answers them 401 with code 1000, as it answers an invalid token.
   */
  accountTokens?: Record<string, Permission[]>;
  /** Legacy global API key credentials (X-Auth-Email / X-Auth-Key). */
  legacyKeys?: { email: string; key: string }[];
  accountId?: string;
  /** The allowance per credential: 1200 requests per 300 seconds, as the real service. */
  rateLimit?: { requests: number; perSeconds: number };
  /** A per-request delay (latency.ts; REALISTIC_LATENCY is the real API's typical 50–250 ms). None by default. */
  latency?: LatencyProfile;
  /**
   * Answer only the endpoints the Cloudflare API v4 lists (400, code 7003 "No route for that URI" for the rest, as the service
   * answers a route it does not have): a test hook showing the provider needs nothing the document does not show
   * where the document shows a way. Off by default; EDGE_EMULATOR_STRICT=1 for a standalone emulator.
   */
  strict?: boolean;
  /** Each zone's plan by zone name (what its rate limiting rules may use); `free` when not named. */
  plans?: Record<string, Plan>;
  /**
   * Changes one `POST /zones/{id}/dns_records/batch` may carry: the zone plan's limit (200 on the free plan, as
   * here by default; 3,500 on paid plans). 0: the endpoint is refused, as by a service or proxy without it.
   */
  batchLimit?: number;
}

export interface Zone {
  id: string;
  name: string;
  settings: Record<string, { value: unknown; modified_on: string | null }>;
  records: RecordMap;
  /** A zone added through POST /zones: pending until its name servers are the assigned ones, and when it was added. */
  added?: { type: string; on: string };
}
