/**
 * The gRPC methods @pulumi/pulumi's Node provider server gets wrong for this plugin, answered here instead:
 * - `Configure`: that server answers it without calling the provider, so stack config (`ops:*`) and an explicit
 *   provider's inputs never reached the plugin. Here they become the plugin's configuration.
 * - `CheckConfig`: the provider's own inputs (and the stack's `ops:*` keys) are checked like a resource's: an
 *   unknown or misspelt key, or a bad value, fails the preview with its name and the fix.
 * - `Read` without properties (`pulumi import`, the `import` option): that server calls `toJavaScript()` on the
 *   missing properties and crashes; here the read gets an empty bag, as `get()` does on the dynamic door.
 *
 * The server class is not exported, so its instance is amended when `main` registers it with grpc-js (the same
 * grpc-js module @pulumi/pulumi loads, found from there).
 */
import * as path from "node:path";

type Bag = Record<string, unknown>;
type Callback = (err: unknown, value?: unknown) => void;
type Call = { request: any };
type Impl = Record<string, (call: Call, callback: Callback) => unknown>;

export interface PluginHooks {
  /** The provider's inputs (secrets still wrapped) and the engine's config variables (`ops:config:<name>`). */
  configure(inputs: Bag, variables: Record<string, string>): void;
  /** Failures of the provider's own inputs. */
  checkConfig(news: Bag): { property: string; reason: string }[];
}

/** The standalone plugin has these bundled in, one copy each: a static require finds the one @pulumi/pulumi uses. */
const BUNDLED: Record<string, () => unknown> = {
  "@grpc/grpc-js": () => require("@grpc/grpc-js"),
  "@pulumi/pulumi/proto/provider_pb": () => require("@pulumi/pulumi/proto/provider_pb"),
  "google-protobuf/google/protobuf/struct_pb": () => require("google-protobuf/google/protobuf/struct_pb"),
  "@pulumi/pulumi/proto/engine_grpc_pb": () => require("@pulumi/pulumi/proto/engine_grpc_pb"),
  "@pulumi/pulumi/proto/engine_pb": () => require("@pulumi/pulumi/proto/engine_pb"),
};

function fromPulumi(module: string): any {
  let pulumiDir: string;
  try {
    pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  } catch {
    return BUNDLED[module](); // no node_modules: the standalone plugin
  }
  return require(require.resolve(module, { paths: [pulumiDir] }));
}

/** Amends the provider service registered next (by `main` of @pulumi/pulumi/provider) with the methods above. */
export function amendProviderServer(hooks: PluginHooks): void {
  const grpc = fromPulumi("@grpc/grpc-js");
  const provproto = fromPulumi("@pulumi/pulumi/proto/provider_pb");
  const structproto = fromPulumi("google-protobuf/google/protobuf/struct_pb");
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (service: unknown, impl: Impl) {
    const read = impl.read.bind(impl);
    impl.configure = (call, callback) => {
      try {
        const variables = Object.fromEntries(call.request.getVariablesMap().toArray() as [string, string][]);
        hooks.configure(call.request.getArgs()?.toJavaScript() ?? {}, variables);
        const resp = new provproto.ConfigureResponse();
        resp.setAcceptsecrets(true);
        resp.setAcceptresources(true);
        resp.setAcceptoutputs(true);
        resp.setSupportspreview(false);
        callback(undefined, resp);
      } catch (e) {
        callback(e);
      }
    };
    impl.checkConfig = (call, callback) => {
      try {
        const news = call.request.getNews();
        const failures = hooks.checkConfig(news?.toJavaScript() ?? {});
        const resp = new provproto.CheckResponse();
        resp.setInputs(news ?? new structproto.Struct());
        resp.setFailuresList(
          failures.map((f) => {
            const failure = new provproto.CheckFailure();
            failure.setProperty(f.property);
            failure.setReason(f.reason);
            return failure;
          }),
        );
        callback(undefined, resp);
      } catch (e) {
        callback(e);
      }
    };
    impl.read = (call, callback) => {
      if (!call.request.getProperties()) call.request.setProperties(new structproto.Struct());
      return read(call, callback);
    };
    return addService.call(this, service, impl);
  };
}

/**
 * Sends a line to the engine's log: progress as the resource `urn`'s status line (ephemeral), notices as its info,
 * warnings at stack level (the CLI's Diagnostics, never inside a resource's diff). False when the line has no place
 * there (progress and notices with no resource named: the caller prints them).
 */
export function engineLog(address: string): (severity: "info" | "notice" | "warning", line: string, urn: string | undefined) => boolean {
  const grpc = fromPulumi("@grpc/grpc-js");
  const enginerpc = fromPulumi("@pulumi/pulumi/proto/engine_grpc_pb");
  const engineproto = fromPulumi("@pulumi/pulumi/proto/engine_pb");
  const client = new enginerpc.EngineClient(address, grpc.credentials.createInsecure());
  return (severity, line, urn) => {
    if (!urn && severity !== "warning") return false;
    const req = new engineproto.LogRequest();
    req.setSeverity(severity === "warning" ? engineproto.LogSeverity.WARNING : engineproto.LogSeverity.INFO);
    req.setMessage(line);
    if (severity !== "warning") req.setUrn(urn!);
    req.setEphemeral(severity === "info");
    client.log(req, () => undefined); // a lost progress line is not worth failing the operation for
    return true;
  };
}
