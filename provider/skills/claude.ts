/**
 * The Claude API's skills endpoints (ops:skillsKind = claude): a skill is a folder uploaded as files (multipart
 * `files[]`, each file's path in the skill as its filename), kept as versions; `/v1/skills` and
 * `/v1/skills/{id}/versions`, generally available since 2026-08-20 and asked without a beta header, as the official
 * SDKs ask them (docs/service-today.md). Answers are checked against the shapes the API reference gives; a refusal is
 * one line with the service's own message.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { stringify } from "yaml";
import { z } from "zod";
import { clientPerSettings, read, readNumber, readUrl, SKILLS_SETTINGS } from "../config";
import { HttpClient } from "../http/client";
import { FORMAT_KEYS } from "./metadata";
import { ApiError, AuthError, NotFoundError } from "../http/errors";

/** The API version the official SDKs send today (both accept the older 2023-06-01). */
export const ANTHROPIC_VERSION = "2026-10-21";

const ClaudeSkill = z.looseObject({
  id: z.string(),
  display_name: z.string().nullish(),
  latest_version_id: z.string().nullish(),
  source: z.union([z.looseObject({ type: z.string() }), z.string()]).optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
const ClaudeVersion = z.looseObject({
  id: z.string(),
  skill_id: z.string().optional(),
  name: z.string(),
  description: z.string(),
  created_at: z.string().optional(),
});
const Page = <T extends z.ZodType>(item: T) => z.looseObject({ data: z.array(item), next_page: z.string().nullish() });

export type ClaudeSkill = z.infer<typeof ClaudeSkill>;
export type ClaudeVersion = z.infer<typeof ClaudeVersion>;

/** A file of a skill: its path in the skill (`my-skill/scripts/run.py`) and its bytes. */
export interface SkillFile {
  path: string;
  bytes: Buffer;
}

/** What a skill folder's upload leaves out: hidden files and folders, and what running its scripts here leaves. */
const LEFT_OUT = /^(\..*|node_modules|__pycache__|venv|.*\.pyc)$/;

/**
 * The files of the skill folder holding `skillMd` (SKILL.md, scripts/, references/, assets/, ...), under a top
 * folder named `name` as the service stores them; hidden files, node_modules, __pycache__, venv and *.pyc are left
 * out. Throws, with a line that says what to do, for a folder that is a Pulumi program's (a SKILL.md beside
 * Pulumi.yaml would upload the program) and for more than the API takes in a version (sized before anything is read).
 */
export function skillFolderFiles(skillMd: string, name: string): SkillFile[] {
  const root = path.dirname(path.resolve(skillMd));
  if (existsSync(path.join(root, "Pulumi.yaml")))
    throw new Error(
      `${skillMd} is in the program's own folder, which would be uploaded with it: keep each skill in a folder of its own (skills/${name}/SKILL.md)`,
    );
  const found: { path: string; full: string; size: number }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (LEFT_OUT.test(entry.name)) continue;
      const full = path.join(dir, entry.name);
      const stat = statSync(full);
      if (stat.isDirectory()) walk(full);
      else if (stat.isFile()) found.push({ path: `${name}/${path.relative(root, full).split(path.sep).join("/")}`, full, size: stat.size });
    }
  };
  walk(root);
  const total = found.reduce((n, f) => n + f.size, 0);
  if (total > CLAUDE_UPLOAD_LIMIT)
    throw new Error(
      `the skill's folder holds ${(total / 1024 / 1024).toFixed(1)} MB, over the Claude API's 30 MB per version: move large assets out of ${root}`,
    );
  // The document itself is named SKILL.md in the upload, whatever the file is called here.
  const doc = `${name}/${path.basename(skillMd)}`;
  return found.map((f) => ({ path: f.path === doc ? `${name}/SKILL.md` : f.path, bytes: readFileSync(f.full) }));
}

/** The SKILL.md of a skill given inline: its front matter (name, description, the format's other fields), the body. */
export function inlineSkillMd(c: { name: string; description: string; instruction: string }, format: Record<string, unknown> = {}): string {
  const { allowedTools, ...rest } = format;
  const front = {
    name: c.name,
    description: c.description,
    ...rest,
    ...(Array.isArray(allowedTools) ? { "allowed-tools": allowedTools.join(" ") } : {}),
  };
  return `---\n${stringify(Object.fromEntries(Object.entries(front).filter(([, v]) => v !== undefined)))}---\n\n${c.instruction.replace(/^\n+/, "")}`;
}

/** What a version's upload holds: the folder of `source`, or a SKILL.md made of the inline fields (and format fields). */
export function uploadFiles(r: Record<string, unknown>, c: { name: string; description: string; instruction: string }): SkillFile[] {
  if (typeof r.source === "string") return skillFolderFiles(r.source, c.name);
  const format = Object.fromEntries(FORMAT_KEYS.filter((k) => r[k] !== undefined).map((k) => [k, r[k]]));
  return [{ path: `${c.name}/SKILL.md`, bytes: Buffer.from(inlineSkillMd(c, format)) }];
}

/** One hash of every file's path and bytes: any change in the folder (a script, a reference) is a new version. */
export const filesHash = (files: SkillFile[]) => {
  const h = createHash("sha256");
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) h.update(`${f.path}\0${f.bytes.length}\0`).update(f.bytes);
  return h.digest("hex");
};

/** The line `pulumi-ops import` writes in the SKILL.md of a Claude skill whose files it cannot read back. */
export const IMPORT_PLACEHOLDER = "<!-- pulumi-ops import: placeholder -->";

/** The Claude API's limit on a version's files, uncompressed (the skills guide). */
export const CLAUDE_UPLOAD_LIMIT = 30 * 1024 * 1024;

export class ClaudeSkillsClient {
  constructor(private readonly http: HttpClient) {}

  static fromConfig(): ClaudeSkillsClient {
    const key = read(SKILLS_SETTINGS.claudeApiKey);
    // The key as the official SDKs send it since 1.0 (API version 2026-10-21): a bearer token.
    const headers: Record<string, string> = { "anthropic-version": ANTHROPIC_VERSION, ...(key ? { authorization: `Bearer ${key}` } : {}) };
    return new ClaudeSkillsClient(
      new HttpClient({
        service: "skills",
        baseUrl: readUrl(SKILLS_SETTINGS.claudeUrl),
        headers,
        timeoutMs: readNumber(SKILLS_SETTINGS.timeoutSeconds) * 1000,
        maxRetries: 5,
        urlKey: "ops:skillsClaudeUrl",
      }),
    );
  }

  private async call<T>(
    schema: z.ZodType<T>,
    method: "GET" | "POST" | "DELETE",
    route: string,
    upload?: { files: SkillFile[]; displayName?: string },
    query?: Record<string, string>,
  ): Promise<T> {
    let body: Buffer | undefined;
    let contentType: string | undefined;
    if (upload) {
      // undici's FormData makes the multipart body (boundary, each file's filename as given), as the SDKs send it.
      const form = new FormData();
      for (const f of upload.files) form.append("files[]", new Blob([new Uint8Array(f.bytes)]), f.path);
      if (upload.displayName) form.append("display_name", upload.displayName);
      const encoded = new Response(form);
      body = Buffer.from(await encoded.arrayBuffer());
      contentType = encoded.headers.get("content-type") ?? undefined;
    }
    const res = await this.http.request(method, route, { ...(body ? { body, contentType } : {}), ...(query ? { query } : {}) });
    if (res.status >= 400) {
      const e = (res.json as { error?: { type?: string; message?: string } })?.error;
      const d = {
        service: "skills",
        status: res.status,
        method,
        path: route,
        message: `the Claude API refused: ${e?.message ?? (res.text.slice(0, 200) || `HTTP ${res.status}`)}${e?.type ? ` (${e.type})` : ""}`,
      };
      if (res.status === 401 || res.status === 403)
        throw new AuthError({ ...d, remedy: "Set an Anthropic API key of the workspace as ops:skillsClaudeApiKey (ANTHROPIC_API_KEY)" });
      if (res.status === 404) throw new NotFoundError(d);
      throw new ApiError(d);
    }
    const parsed = schema.safeParse(res.json);
    if (parsed.success) return parsed.data;
    throw new ApiError({
      service: "skills",
      message: `${method} ${route}: the answer is not the Claude API's (${parsed.error.issues[0]?.path.join(".") || "body"}: ${parsed.error.issues[0]?.message})`,
      remedy: "Check ops:skillsClaudeUrl (ANTHROPIC_BASE_URL): it must be the API's base URL, https://api.anthropic.com",
    });
  }

  create(files: SkillFile[], displayName?: string): Promise<ClaudeSkill> {
    return this.call(ClaudeSkill, "POST", "/v1/skills", { files, displayName });
  }
  createVersion(id: string, files: SkillFile[]): Promise<ClaudeVersion> {
    return this.call(ClaudeVersion, "POST", `/v1/skills/${id}/versions`, { files });
  }
  get(id: string): Promise<ClaudeSkill> {
    return this.call(ClaudeSkill, "GET", `/v1/skills/${id}`);
  }
  /** A version by id, or `latest`. */
  version(id: string, version: string): Promise<ClaudeVersion> {
    return this.call(ClaudeVersion, "GET", `/v1/skills/${id}/versions/${version}`);
  }
  /** Every skill the workspace made (not Anthropic's own), following next_page. */
  async listCustom(): Promise<ClaudeSkill[]> {
    return this.all(ClaudeSkill, "/v1/skills", { source: "custom" });
  }
  /** Every version of a skill, newest first. */
  versions(id: string): Promise<ClaudeVersion[]> {
    return this.all(ClaudeVersion, `/v1/skills/${id}/versions`, {});
  }
  private async all<T extends z.ZodType>(item: T, route: string, query: Record<string, string>): Promise<z.infer<T>[]> {
    const out: z.infer<T>[] = [];
    let page: string | undefined;
    for (let i = 0; i < 1000; i++) {
      const answer = await this.call(Page(item), "GET", route, undefined, { ...query, limit: "100", ...(page ? { page } : {}) });
      out.push(...answer.data);
      if (!answer.next_page || !answer.data.length) break;
      page = answer.next_page;
    }
    return out;
  }
  /**
   * Deletes the skill and its versions. Today the service deletes a skill's versions with it; a workspace still on
   * the beta's rule refuses a skill that has versions (400), so its versions are deleted first, then the skill.
   */
  async delete(id: string): Promise<void> {
    try {
      await this.call(z.unknown(), "DELETE", `/v1/skills/${id}`);
      return;
    } catch (e) {
      if (e instanceof NotFoundError) return;
      if (!(e instanceof ApiError && e.status === 400 && /version/i.test(e.message))) throw e;
    }
    for (const v of await this.versions(id))
      await this.call(z.unknown(), "DELETE", `/v1/skills/${id}/versions/${v.id}`).catch((e) => {
        if (!(e instanceof NotFoundError)) throw e;
      });
    await this.call(z.unknown(), "DELETE", `/v1/skills/${id}`).catch((e) => {
      if (!(e instanceof NotFoundError)) throw e;
    });
  }
}

export const claudeSkills: () => ClaudeSkillsClient = clientPerSettings(
  [SKILLS_SETTINGS.claudeUrl, SKILLS_SETTINGS.claudeApiKey, SKILLS_SETTINGS.timeoutSeconds],
  () => ClaudeSkillsClient.fromConfig(),
);
