/**
 * pulumi-ops runs only on the Node.js its dependencies need: undici 8 (every request) needs 22.19, @pulumi/pulumi
 * 3.2xx needs 22. On an older Node the SDK loads but every request then fails as "service not reachable", so
 * both doors and the SDK refuse at once with one message that says which Node is needed and why.
 */
export const MINIMUM_NODE = [22, 19] as const;

/** Why this Node cannot run pulumi-ops, or undefined. */
export function nodeProblem(version: string = process.versions.node): string | undefined {
  const [major, minor] = version.split(".").map(Number);
  if (major > MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor >= MINIMUM_NODE[1])) return undefined;
  return `pulumi-ops needs Node.js ${MINIMUM_NODE.join(".")} or newer, and this is Node.js ${version} (${process.execPath}): its HTTP client (undici 8) needs 22.19 and @pulumi/pulumi needs 22. Install Node.js 22 (for example \`nvm install 22\`, or the \`node\` npm package in the program's devDependencies) and run pulumi again`;
}

/** Throws the one message on an unsupported Node (its stack is the message: a trace would add nothing). */
export function requireSupportedNode(): void {
  const problem = nodeProblem();
  if (!problem) return;
  const e = new Error(problem);
  e.stack = `Error: ${problem}`;
  throw e;
}
