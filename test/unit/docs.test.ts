import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { registry } from "../../provider/registry";
import { generateDocs, readmeWithTable } from "../../scripts/gen-docs";

describe("docs/reference", () => {
  const pages = generateDocs();

  it("is what the schemas and the SDK's doc comments generate today (run `npm run gen` after a change)", () => {
    for (const [file, text] of Object.entries(pages)) {
      expect(readFileSync(path.resolve(__dirname, "../../docs/reference", file), "utf8"), file).toBe(text);
    }
  });

  it("shows every resource's and function's example in TypeScript, Python, Go and YAML", () => {
    for (const [module] of Object.keys(registry).map((t) => t.split(":"))) {
      const sections = pages[`${module}.md`]
        .split(/\n#{2,3} /)
        .filter((s) => /^(\w+\.[A-Z]\w+|[a-z]\w+)\n/.test(s) && !/\*\*Deprecated:\*\*/.test(s));
      for (const section of sections)
        for (const fence of ["ts", "python", "go", "yaml"])
          expect(section, `${section.split("\n")[0]}: ${fence}`).toContain("```" + fence + "\n");
    }
  });

  it("gives every input, output and field of a type a sentence", () => {
    const silent: string[] = [];
    for (const [file, text] of Object.entries(pages)) {
      let table = false;
      for (const line of text.split("\n")) {
        if (/^\| (input|output|field) \|/.test(line)) table = true;
        else if (!line.startsWith("|")) table = false;
        else if (table && line.startsWith("| `") && !line.split("|").at(-2)!.trim()) silent.push(`${file}: ${line.split("|")[1].trim()}`);
      }
    }
    expect(silent).toEqual([]);
  });

  it("README's configuration table is the settings' own (run `npm run gen` after a change)", () => {
    const readme = readFileSync(path.resolve(__dirname, "../../README.md"), "utf8");
    expect(readme).toBe(readmeWithTable(readme));
    expect(readme).toMatch(
      /\| `ops:edgeApiToken` \| `edgeApiToken` \/ `edge_api_token` \| `EDGE_API_TOKEN`, then `CLOUDFLARE_API_TOKEN` \|/,
    );
  });

  it("documents every resource with its inputs, outputs, an example and how to reach an existing object", () => {
    for (const token of Object.keys(registry)) {
      const [module, name] = token.split(":");
      const page = pages[`${module}.md`];
      const section = page.split(/\n## /).find((s) => s.startsWith(`${module}.${name}\n`));
      expect(section, token).toBeDefined();
      expect(section).toMatch(/### Inputs\n\n\| input/);
      expect(section).toMatch(/### Outputs\n\n\| output/);
      // A retired resource has no example to follow: what to do instead is its text.
      if (registry[token].retired) expect(section).toMatch(/\*\*Deprecated:\*\*/);
      else expect(section).toMatch(/```ts\n.*new ops\./);
      // A remote command or a remote-desktop session acts on a host, a remote file is taken by declaring it (its
      // content is not read back), and a record set is the program's grouping of records: nothing the service keeps
      // to look up (no get). Every other type can be read and imported.
      const noObject = ["control:RemoteCommand", "control:RemoteDesktopSession", "control:RemoteFile", "edge:DnsRecordSet"].includes(token);
      expect(registry[token].importId === undefined, token).toBe(noObject);
      const lookup = noObject ? /Read only: none/ : new RegExp(`Read only: \`${name}\\.get\\(name, id\\)\`\\. .*\`id\` is`);
      expect(section).toMatch(lookup);
      // Its import id, and its Python names beside the TypeScript ones.
      expect(section).toMatch(
        registry[token].importId ? new RegExp(`Import \\(the plugin\\): \`pulumi import ops:${token} <name> <id>\``) : /Import: none/,
      );
      expect(section).toMatch(/\| input \| Python \|/);
    }
  });
});
