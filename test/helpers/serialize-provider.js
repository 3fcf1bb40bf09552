// Run by plain `node` (not vitest, which rewrites imports) in a program directory (the working directory):
// serializes a resource type's provider the way @pulumi/pulumi does for __provider, loads the text the way the
// dynamic provider host does, and calls check. Modules resolve from the working directory, as in a program.
// Also reports the modules that loading the provider and its check added (`loaded`, paths from node_modules on).
const { createRequire } = require("node:module");
const path = require("node:path");

const req = createRequire(path.join(process.cwd(), "program.js"));
const pulumi = req("@pulumi/pulumi");
const requireFromString = req("require-from-string");
const before = new Set(Object.keys(require.cache));
const [service, type] = process.argv[2].split(":");
const provider = req(`pulumi-ops/dist/provider/providers/${service}-${type}`);

(async () => {
  const serialized = await pulumi.runtime.serializeFunction(() => provider);
  const loaded = requireFromString(serialized.text).handler();
  await loaded.configure({ config: { get: () => undefined } });
  const result = await loaded.check({}, JSON.parse(process.argv[3]));
  const modules = Object.keys(require.cache).filter((m) => !before.has(m)).map((m) => m.slice(m.lastIndexOf("node_modules/") + 13));
  process.stdout.write(JSON.stringify({ size: serialized.text.length, text: serialized.text, result, loaded: modules }));
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
