/**
 * What @pulumi/pulumi's dynamic provider host prints again of a failure this process gave it: kept from stderr, as
 * the engine already shows the failure under its resource and in the diagnostics.
 */

/**
 * Errors this process handed to @pulumi/pulumi's dynamic provider host. On check, diff, read and delete the host
 * also prints each as `${e}: ${e.stack}` to stderr, which the CLI shows as one more stack-level line with the
 * message twice and a stack trace; the engine already shows the failure under its resource and in the diagnostics.
 */
export const handedOver = new Set<string>();

export function quietHostReprints(): void {
  const print = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    const line = typeof args[0] === "string" ? args[0] : "";
    for (const m of handedOver) {
      if (line.startsWith(m)) {
        handedOver.delete(m);
        return;
      }
    }
    print(...args);
  };
}
