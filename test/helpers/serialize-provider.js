// Run by plain `node` (not vitest, which rewrites imports): serializes a resource type's provider object the way
// @pulumi/pulumi does for __provider, loads the text the way the dynamic provider host does, and calls check.
const pulumi = require("@pulumi/pulumi");
const requireFromString = require("require-from-string");
const { providerFor } = require("pulumi-ops/dist/provider/dynamic");

(async () => {
  const provider = providerFor(process.argv[2]);
  const serialized = await pulumi.runtime.serializeFunction(() => provider);
  const loaded = requireFromString(serialized.text).handler();
  await loaded.configure({ config: { get: () => undefined } });
  const result = await loaded.check({}, JSON.parse(process.argv[3]));
  process.stdout.write(JSON.stringify({ size: serialized.text.length, text: serialized.text, result }));
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
