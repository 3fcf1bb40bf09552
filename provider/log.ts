/**
 * Progress lines from the provider. The engine shows a dynamic provider's stderr in the CLI, so this is how a user
 * sees retries and waits. Every line passes through `redact`, which masks each credential the config loaded.
 */

const secrets = new Set<string>();

/** Registers a credential value so that it is masked wherever it would be printed or thrown. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
}

export function redact(text: string): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join("[secret]");
  return out;
}

export function log(line: string): void {
  if (process.env.PULUMI_OPS_QUIET === "1") return;
  process.stderr.write(`[pulumi-ops] ${redact(line)}\n`);
}
