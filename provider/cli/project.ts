/**
 * The TypeScript project `pulumi-ops import` and `pulumi-ops migrate` write: its files, the names of its resources,
 * and the dependency on pulumi-ops as the user installed it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";

/** Writes `index.ts`, Pulumi.yaml and package.json (depending on pulumi-ops as it is installed here); the spec written. */
export function writeTypeScriptProject(out: string, program: string[], description: string, fallbackName: string, name?: string): string {
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, "index.ts"), `${program.join("\n")}\n`);
  const project = name ?? (path.basename(out).replace(/[^A-Za-z0-9_.-]/g, "-") || fallbackName);
  writeFileSync(path.join(out, "Pulumi.yaml"), `name: ${project}\nruntime: nodejs\ndescription: ${description}\n`);
  const spec = dependencySpec(out);
  // typescript@5: the Node language host cannot run TypeScript 7, the registry's latest.
  writeFileSync(
    path.join(out, "package.json"),
    `${JSON.stringify({ name: project, private: true, main: "index.ts", dependencies: { "pulumi-ops": spec, "@pulumi/pulumi": "^3.259.0" }, devDependencies: { typescript: "^5.9.3", "@types/node": "^22.19.0" } }, null, 2)}\n`,
  );
  return spec;
}

/** Names a program can use: lower-case words joined by dashes, numbered where two would be the same. */
export function uniqueNames(found: { type: string; name: string }[]): string[] {
  const seen = new Map<string, number>();
  return found.map((f) => {
    const base =
      f.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "")
        .slice(0, 60) || f.type.split(":")[1].toLowerCase();
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  });
}

/**
 * How the written program depends on pulumi-ops: the way the running copy was installed, so that `npm install` in
 * the new folder resolves it as it did here — the tarball, URL or path npm recorded for it (node_modules/.package-lock.json
 * of the project it is installed in; a path re-based to the new folder), else that project's own dependency line,
 * else the project the command runs in; a copy that is no install (a clone) is depended on by its path. A registry
 * version is written only where npm installed it from the registry.
 */
export function dependencySpec(out: string, cwd = process.cwd(), own = packageRoot()): string {
  const installedIn = own && path.basename(path.dirname(own)) === "node_modules" ? path.dirname(path.dirname(own)) : undefined;
  if (installedIn) {
    const resolved = lockedResolution(installedIn);
    if (resolved) return rebased(resolved, installedIn, out);
  }
  for (const project of [installedIn, cwd].filter((p): p is string => !!p)) {
    const spec = declaredSpec(project);
    if (spec) return rebased(spec, project, out);
  }
  if (own && !installedIn) return `file:${path.relative(out, own) || "."}`;
  const version = own ? (JSON.parse(readFileSync(path.join(own, "package.json"), "utf8")) as { version: string }).version : undefined;
  return version ? `^${version}` : "*";
}

/** This package's folder: two levels up from the source (provider/cli), three from the build (dist/provider/cli). */
export function packageRoot(): string | undefined {
  return ["../..", "../../.."]
    .map((up) => path.resolve(__dirname, up))
    .find(
      (d) =>
        existsSync(path.join(d, "package.json")) && JSON.parse(readFileSync(path.join(d, "package.json"), "utf8")).name === "pulumi-ops",
    );
}

/** Where npm took pulumi-ops from when it installed it in `project`: a tarball URL, `file:` path or registry URL. */
function lockedResolution(project: string): string | undefined {
  for (const lock of ["node_modules/.package-lock.json", "package-lock.json"]) {
    try {
      const entry = (
        JSON.parse(readFileSync(path.join(project, lock), "utf8")) as { packages?: Record<string, { resolved?: string; version?: string }> }
      ).packages?.["node_modules/pulumi-ops"];
      if (!entry?.resolved) continue;
      // From the registry: its version's range reads better than the registry's tarball URL.
      const registry = /\/pulumi-ops\/-\/pulumi-ops-(\d[^/]*)\.tgz$/.exec(entry.resolved);
      return registry ? `^${registry[1]}` : entry.resolved;
    } catch {
      // no lock there
    }
  }
  return undefined;
}

function declaredSpec(project: string): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(path.join(project, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    return pkg.dependencies?.["pulumi-ops"] ?? pkg.devDependencies?.["pulumi-ops"];
  } catch {
    return undefined;
  }
}

/** A `file:` spec relative to `from` made relative to `to`; anything else as it is. */
function rebased(spec: string, from: string, to: string): string {
  return spec.startsWith("file:") ? `file:${path.relative(to, path.resolve(from, spec.slice(5))) || "."}` : spec;
}
