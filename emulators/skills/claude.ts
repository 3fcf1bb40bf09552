/**
 * The Claude API's skills endpoints as they answer today (generally available since 2026-08-20, no beta header):
 * `/v1/skills` and `/v1/skills/{id}/versions`, as the skills guide, the API reference and the official SDKs
 * (@anthropic-ai/sdk 1.14, anthropic 2.14 on PyPI) describe them — docs/service-today.md has the sources.
 *
 * - A skill is uploaded as files: multipart `files[]` parts, each file's path in the skill as the part's filename
 *   (`my-skill/SKILL.md`); SKILL.md at the root of the upload or of its one top folder; at most 30 MB in all.
 * - SKILL.md's front matter: `name` (at most 64 characters, lowercase letters, digits and hyphens, no XML tags, not
 *   the reserved words "anthropic" or "claude"), `description` (non-empty, at most 1024 characters, no XML tags).
 * - Creating a skill makes its first version; a version is a whole snapshot whose name must be the skill's.
 * - Deleting a skill deletes its versions; its only version cannot be deleted (upload another, or delete the skill).
 * - Lists are `{data, next_page}` (limit 1 to 1000, default 20); versions newest first; `latest` names the newest
 *   version on GET. The list holds Anthropic's own skills too unless `source=custom` is asked.
 * - Errors: `{"type":"error","error":{"type","message"},"request_id"}`.
 * - The key: `x-api-key` (the docs' curl) or `Authorization: Bearer` (the official SDKs since 1.0, API 2026-10-21).
 *
 * Not served: a zip upload (the SDKs send files), the version's content download, and the beta shapes a request
 * with `anthropic-beta: skills-2025-10-02` would get (refused with a line saying so, not answered in the wrong shape).
 * `legacyDelete` plays a workspace still on the beta's delete rule (a skill with versions cannot be deleted).
 */
import { randomBytes } from "node:crypto";
import { parse as parseYaml } from "yaml";
import { Emulator, HttpError, type Reply, type Request } from "../kit";

export const CLAUDE_API_KEY = "sk-ant-api03-emulator-0123456789";
const MAX_UPLOAD_BYTES = 30 * 1024 * 1024;

export interface ClaudeSkillVersion {
  id: string;
  name: string;
  description: string;
  createdAt: string;
  /** The files by their path in the skill (the top folder taken off), as uploaded. */
  files: Map<string, Buffer>;
}

export interface ClaudeSkill {
  id: string;
  displayName: string;
  source: "custom" | "anthropic";
  createdAt: string;
  updatedAt: string;
  /** Oldest first. */
  versions: ClaudeSkillVersion[];
}

export interface ClaudeSkillsEmulatorOptions {
  port?: number;
  /** The beta's delete rule: a skill that still has versions is refused (400); its versions can all be deleted. */
  legacyDelete?: boolean;
}

const ANTHROPIC_SKILLS = ["pptx", "xlsx", "docx", "pdf"];
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const newId = (prefix: string) => `${prefix}_01${[...randomBytes(22)].map((b) => BASE62[b % 62]).join("")}`;

function fail(status: number, type: string, message: string): never {
  throw new HttpError({ status, body: { type: "error", error: { type, message }, request_id: newId("req") } });
}

export class ClaudeSkillsEmulator extends Emulator {
  skills = new Map<string, ClaudeSkill>();

  constructor(readonly options: ClaudeSkillsEmulatorOptions = {}) {
    super("claude-skills", options.port ?? 0);
    this.reset();
    this.registerRoutes();
  }

  reset(): void {
    this.skills.clear();
    for (const name of ANTHROPIC_SKILLS) {
      const at = "2025-10-13T00:00:00Z";
      this.skills.set(name, {
        id: name,
        displayName: name,
        source: "anthropic",
        createdAt: at,
        updatedAt: at,
        versions: [{ id: "20251013", name, description: `Anthropic's ${name} skill`, createdAt: at, files: new Map() }],
      });
    }
  }

  protected faultReply(status: number, retryAfter?: number): Reply {
    const type = status === 429 ? "rate_limit_error" : status === 529 ? "overloaded_error" : "api_error";
    return {
      status,
      body: {
        type: "error",
        error: { type, message: status === 429 ? "Number of requests has exceeded your rate limit" : "Internal server error" },
        request_id: newId("req"),
      },
      headers: retryAfter ? { "retry-after": String(retryAfter) } : {},
    };
  }

  protected notFound(_req: Request): Reply {
    return { status: 404, body: { type: "error", error: { type: "not_found_error", message: "Not found" }, request_id: newId("req") } };
  }

  /** The skills a user made (what `source=custom` lists). */
  custom(): ClaudeSkill[] {
    return [...this.skills.values()].filter((s) => s.source === "custom");
  }

  private authorize(req: Request): void {
    // The key as the docs' curl sends it (x-api-key) or as the official SDKs send it since 1.0 (Authorization: Bearer).
    if (req.headers["x-api-key"] !== CLAUDE_API_KEY && req.headers.authorization !== `Bearer ${CLAUDE_API_KEY}`)
      fail(401, "authentication_error", "invalid x-api-key");
    if (String(req.headers["anthropic-beta"] ?? "").includes("skills-2025-10-02"))
      fail(
        400,
        "invalid_request_error",
        "this emulator serves the skills API's generally available shapes only; send no skills-2025-10-02 beta header",
      );
  }

  private skill(id: string): ClaudeSkill {
    const s = this.skills.get(id);
    if (!s) fail(404, "not_found_error", "Skill not found");
    return s;
  }

  private version(s: ClaudeSkill, ref: string, latestAllowed: boolean): ClaudeSkillVersion {
    const v = ref === "latest" && latestAllowed ? s.versions.at(-1) : s.versions.find((x) => x.id === ref);
    if (!v) fail(404, "not_found_error", `Skill version ${ref} not found`);
    return v;
  }

  /** The uploaded files, checked as the service checks them: one version's snapshot. */
  private async upload(req: Request): Promise<{ name: string; description: string; files: Map<string, Buffer>; displayName?: string }> {
    if (!String(req.headers["content-type"] ?? "").startsWith("multipart/form-data"))
      fail(400, "invalid_request_error", "the body must be multipart/form-data with files[]");
    const form = await new Response(req.bytes, { headers: { "content-type": String(req.headers["content-type"]) } }).formData();
    const parts = [...form.getAll("files[]"), ...form.getAll("files")].filter((p) => typeof p !== "string") as unknown as {
      name: string;
      arrayBuffer(): Promise<ArrayBuffer>;
    }[];
    if (!parts.length) fail(400, "invalid_request_error", "files: at least one file is required");
    const uploaded: [string, Buffer][] = [];
    let total = 0;
    for (const p of parts) {
      if (p.name.endsWith(".zip")) fail(400, "invalid_request_error", "this emulator takes the skill's files, not a zip archive");
      if (p.name.includes("\\")) fail(400, "invalid_request_error", "Skill contains path with invalid characters");
      const bytes = Buffer.from(await p.arrayBuffer());
      total += bytes.length;
      uploaded.push([p.name.replace(/^\.?\//, ""), bytes]);
    }
    if (total > MAX_UPLOAD_BYTES)
      fail(
        400,
        "invalid_request_error",
        `Total upload size must be under 30 MB (uncompressed); got ${(total / 1024 / 1024).toFixed(1)} MB`,
      );
    // One enclosing folder is taken off; SKILL.md must then be at the root.
    const tops = new Set(uploaded.map(([p]) => (p.includes("/") ? p.split("/")[0] : "")));
    const strip = tops.size === 1 && !tops.has("") ? `${[...tops][0]}/` : "";
    const files = new Map(uploaded.map(([p, b]) => [p.slice(strip.length), b]));
    const skillMd = files.get("SKILL.md");
    if (!skillMd) fail(400, "invalid_request_error", "SKILL.md file must be exactly in the top-level folder.");
    const m = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(skillMd.toString("utf8"));
    let front: Record<string, unknown> = {};
    try {
      front = (m ? parseYaml(m[1]) : {}) ?? {};
    } catch (e) {
      fail(400, "invalid_request_error", `SKILL.md front matter is not valid YAML: ${(e as Error).message.split("\n")[0]}`);
    }
    const name = typeof front.name === "string" ? front.name : "";
    const description = typeof front.description === "string" ? front.description : "";
    if (!name) fail(400, "invalid_request_error", "SKILL.md front matter must have a name");
    if (name.length > 64) fail(400, "invalid_request_error", "Skill name in SKILL.md must be at most 64 characters.");
    if (!/^[a-z0-9-]+$/.test(name))
      fail(400, "invalid_request_error", "Skill name in SKILL.md can only contain lowercase letters, numbers, and hyphens.");
    for (const word of ["anthropic", "claude"])
      if (name.includes(word)) fail(400, "invalid_request_error", `Skill name in SKILL.md cannot contain the reserved word '${word}'.`);
    if (!description.trim()) fail(400, "invalid_request_error", "SKILL.md front matter must have a non-empty description");
    if (description.length > 1024) fail(400, "invalid_request_error", "Skill description in SKILL.md must be at most 1024 characters.");
    if (/<[^>]+>/.test(description)) fail(400, "invalid_request_error", "Skill description in SKILL.md cannot contain XML tags.");
    const displayName = form.get("display_name");
    return { name, description, files, ...(typeof displayName === "string" ? { displayName } : {}) };
  }

  static skillJson(s: ClaudeSkill) {
    return {
      id: s.id,
      type: "skill",
      display_name: s.displayName,
      latest_version_id: s.versions.at(-1)?.id ?? null,
      source: { type: s.source },
      created_at: s.createdAt,
      updated_at: s.updatedAt,
    };
  }

  static versionJson(s: ClaudeSkill, v: ClaudeSkillVersion) {
    return { id: v.id, type: "skill_version", skill_id: s.id, name: v.name, description: v.description, created_at: v.createdAt };
  }

  /** One page of `items`: `page` is the opaque cursor a previous page gave as next_page. */
  private page<T>(req: Request, items: T[]): { data: T[]; next_page: string | null } {
    const limit = Number(req.query.get("limit") ?? 20);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) fail(400, "invalid_request_error", "limit: must be between 1 and 1000");
    const from = req.query.get("page") ? Number(Buffer.from(String(req.query.get("page")), "base64url").toString()) : 0;
    if (!Number.isInteger(from) || from < 0) fail(400, "invalid_request_error", "page: invalid cursor");
    const next = from + limit < items.length ? Buffer.from(String(from + limit)).toString("base64url") : null;
    return { data: items.slice(from, from + limit), next_page: next };
  }

  private registerRoutes(): void {
    this.route("POST", "/v1/skills", async (req) => {
      this.authorize(req);
      const u = await this.upload(req);
      const displayName = u.displayName ?? u.name;
      if (displayName.length > 255 || /[\r\n]/.test(displayName))
        fail(400, "invalid_request_error", "display_name: a single line of at most 255 characters");
      const at = new Date(this.now()).toISOString();
      const s: ClaudeSkill = {
        id: newId("skill"),
        displayName,
        source: "custom",
        createdAt: at,
        updatedAt: at,
        versions: [{ id: newId("skver"), name: u.name, description: u.description, createdAt: at, files: u.files }],
      };
      this.skills.set(s.id, s);
      return { status: 200, body: ClaudeSkillsEmulator.skillJson(s) };
    });
    this.route("GET", "/v1/skills", (req) => {
      this.authorize(req);
      const source = req.query.get("source");
      const all = [...this.skills.values()].filter((s) => !source || s.source === source);
      const page = this.page(req, all);
      return { status: 200, body: { data: page.data.map(ClaudeSkillsEmulator.skillJson), next_page: page.next_page } };
    });
    this.route("GET", "/v1/skills/:id", (req) => {
      this.authorize(req);
      return { status: 200, body: ClaudeSkillsEmulator.skillJson(this.skill(req.params.id)) };
    });
    this.route("DELETE", "/v1/skills/:id", (req) => {
      this.authorize(req);
      const s = this.skill(req.params.id);
      if (s.source !== "custom") fail(403, "permission_error", "Anthropic's skills cannot be deleted");
      if (this.options.legacyDelete && s.versions.length)
        fail(400, "invalid_request_error", "Cannot delete skill with existing versions. Delete all versions first.");
      this.skills.delete(s.id);
      return { status: 200, body: { id: s.id, type: "skill_deleted" } };
    });
    this.route("POST", "/v1/skills/:id/versions", async (req) => {
      this.authorize(req);
      const s = this.skill(req.params.id);
      if (s.source !== "custom") fail(403, "permission_error", "Anthropic's skills cannot be changed");
      const u = await this.upload(req);
      const name = s.versions.at(-1)?.name;
      if (name && u.name !== name)
        fail(400, "invalid_request_error", `The name '${u.name}' in SKILL.md must match the Skill's name '${name}'.`);
      const at = new Date(this.now()).toISOString();
      const v: ClaudeSkillVersion = { id: newId("skver"), name: u.name, description: u.description, createdAt: at, files: u.files };
      s.versions.push(v);
      s.updatedAt = at;
      return { status: 200, body: ClaudeSkillsEmulator.versionJson(s, v) };
    });
    this.route("GET", "/v1/skills/:id/versions", (req) => {
      this.authorize(req);
      const s = this.skill(req.params.id);
      const page = this.page(req, [...s.versions].reverse());
      return { status: 200, body: { data: page.data.map((v) => ClaudeSkillsEmulator.versionJson(s, v)), next_page: page.next_page } };
    });
    this.route("GET", "/v1/skills/:id/versions/:version", (req) => {
      this.authorize(req);
      const s = this.skill(req.params.id);
      return { status: 200, body: ClaudeSkillsEmulator.versionJson(s, this.version(s, req.params.version, true)) };
    });
    this.route("DELETE", "/v1/skills/:id/versions/:version", (req) => {
      this.authorize(req);
      const s = this.skill(req.params.id);
      const v = this.version(s, req.params.version, false);
      if (s.versions.length === 1 && !this.options.legacyDelete)
        fail(
          400,
          "invalid_request_error",
          "Cannot delete the only version of a skill: upload a replacement version first, or delete the Skill.",
        );
      s.versions = s.versions.filter((x) => x !== v);
      return { status: 200, body: { id: v.id, type: "skill_version_deleted" } };
    });
  }
}
