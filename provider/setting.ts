/** What a setting is (its key, environment variables, default and what it takes), and how a service names its settings. */
export interface Setting {
  /** The name as a provider input and inside an account: `edgeApiToken`. */
  name: string;
  /** The stack config key: `ops:edgeApiToken`. */
  key: string;
  /** The key of the first release (`edge:apiToken`), still read on the dynamic door. */
  legacyKey: string;
  env: string;
  /**
   * The names the service's own tools read (wrangler, its Terraform provider, its official SDKs), read after `env`
   * so a CI that already exports them needs nothing more.
   */
  alsoEnv?: string[];
  secret?: boolean;
  default?: string;
  description: string;
  /** A number setting's allowed range. */
  range?: [number, number];
  /** A URL setting. */
  url?: boolean;
  /** A true/false setting. */
  bool?: boolean;
  /** A setting that takes one of these words. */
  oneOf?: string[];
}

export type SettingSpec = Omit<Setting, "name" | "key" | "legacyKey">;

/** A service's settings, named `<service><Key>` under the `ops` namespace. */
export function settings<T extends Record<string, SettingSpec>>(service: string, table: T): { [K in keyof T]: Setting } {
  return Object.fromEntries(
    Object.entries(table).map(([k, spec]) => {
      const name = service ? service + k[0].toUpperCase() + k.slice(1) : k;
      return [k, { ...spec, name, key: `ops:${name}`, legacyKey: `${service || "ops"}:${k}` }];
    }),
  ) as { [K in keyof T]: Setting };
}
