/**
 * A stateful emulator of the skills registry's API (docs/emulators.md, its Skills registry section): the skills registry. Publishing may require a bearer token; the spec
 * has no delete, so DELETE is answered only when the emulator is started with `allowDelete`.
 */
import { z } from "zod";
import { Emulator, HttpError, parseJson, type Reply, type Request } from "../kit";

export interface Skill {
  slug: string;
  name: string;
  description: string;
  instruction: string;
  category?: string;
  tags: string[];
  agents: string[];
  toolsRequired: string[];
  version?: string;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  allowedTools?: string[];
  updatedAt: string;
}

export interface SkillsEmulatorOptions {
  port?: number;
  /** When set, PUT (and DELETE) need `Authorization: Bearer <publishToken>`. */
  publishToken?: string;
  allowDelete?: boolean;
  /** How a PUT answers: the skill (default), 201/200 with no body, or 204. */
  putAnswer?: "body" | "empty" | "no-content";
  /** Search results per page (`next` links the following page). */
  pageSize?: number;
}

export const SKILLS_PUBLISH_TOKEN = "skills-publish-token-0123";
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A skill as the SKILL.md format (agentskills.io) types it; anything else is refused with 400 and what was wrong. */
const SkillBody = z.object({
  name: z.string({ error: "name must be a string" }).regex(SLUG, "name must be kebab-case"),
  description: z.string({ error: "description must be a string" }),
  instruction: z.string({ error: "instruction must be a string" }),
  category: z
    .enum(["dev", "infrastructure", "content", "ops", "social"], {
      error: "category must be one of dev, infrastructure, content, ops, social",
    })
    .optional(),
  tags: z.array(z.string({ error: "tags must be an array of strings" }), { error: "tags must be an array of strings" }).optional(),
  agents: z.array(z.string({ error: "agents must be an array of strings" }), { error: "agents must be an array of strings" }).optional(),
  toolsRequired: z
    .array(z.string({ error: "toolsRequired must be an array of strings" }), { error: "toolsRequired must be an array of strings" })
    .optional(),
  version: z.string({ error: "version must be a string" }).optional(),
  // The Agent Skills format's optional front-matter fields.
  license: z.string({ error: "license must be a string" }).optional(),
  compatibility: z.string({ error: "compatibility must be a string" }).max(500, "compatibility must be at most 500 characters").optional(),
  metadata: z
    .record(z.string(), z.string({ error: "metadata values must be strings" }), { error: "metadata must be an object of strings" })
    .optional(),
  allowedTools: z
    .array(z.string({ error: "allowedTools must be an array of strings" }), { error: "allowedTools must be an array of strings" })
    .optional(),
});

export class SkillsEmulator extends Emulator {
  skills = new Map<string, Skill>();
  /** The next N deletes answer 404 and delete nothing (a registry that lost the request). */
  spuriousDelete404 = 0;

  constructor(readonly options: SkillsEmulatorOptions = {}) {
    super("skills", options.port ?? 0);
    this.reset();
    this.registerRoutes();
  }

  reset(): void {
    this.skills.clear();
    this.spuriousDelete404 = 0;
  }

  protected notFound(): Reply {
    return { status: 404, body: { error: "not found" } };
  }

  protected faultReply(status: number, retryAfter?: number): Reply {
    return {
      status,
      body: { error: status === 429 ? "too many requests" : "internal error" },
      headers: retryAfter ? { "retry-after": String(retryAfter) } : {},
    };
  }

  private authorize(req: Request): void {
    const want = this.options.publishToken;
    if (want && req.headers.authorization !== `Bearer ${want}`)
      throw new HttpError({ status: 401, body: { error: "publishing needs a valid bearer token" } });
  }

  private get(slug: string): Skill {
    const s = this.skills.get(slug);
    if (!s) throw new HttpError({ status: 404, body: { error: `skill ${slug} not found` } });
    return s;
  }

  /** The skill as a SKILL.md of the Agent Skills format: its fields in the front matter (YAML), then the body. */
  static markdown(s: Skill): string {
    const front: Record<string, unknown> = {
      name: s.name,
      description: s.description,
      license: s.license,
      compatibility: s.compatibility,
      metadata: s.metadata,
      "allowed-tools": s.allowedTools?.join(" "),
    };
    const yaml = Object.entries(front)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) =>
        typeof v === "object"
          ? `${k}:\n${Object.entries(v as object)
              .map(([mk, mv]) => `  ${JSON.stringify(mk)}: ${JSON.stringify(mv)}`)
              .join("\n")}`
          : `${k}: ${k === "name" ? v : JSON.stringify(v)}`,
      )
      .join("\n");
    return `---\n${yaml}\n---\n\n${s.instruction.replace(/^\n+/, "")}`;
  }

  private registerRoutes(): void {
    this.route("GET", "/api/skills", (req) => {
      const q = (req.query.get("q") ?? "").toLowerCase();
      const hits = [...this.skills.values()].filter(
        (s) => !q || [s.name, s.description, s.instruction, ...s.tags].some((t) => t.toLowerCase().includes(q)),
      );
      const size = this.options.pageSize ?? 50;
      const page = Math.max(1, Number(req.query.get("page") ?? 1));
      const slice = hits.slice((page - 1) * size, page * size);
      const next =
        page * size < hits.length
          ? `/api/skills?${new URLSearchParams({ q: req.query.get("q") ?? "", page: String(page + 1) })}`
          : undefined;
      return { status: 200, body: { skills: slice, ...(next ? { next } : {}) } };
    });
    this.route("GET", "/api/skills/:slug", (req) => ({ status: 200, body: this.get(req.params.slug) }));
    this.route("GET", "/api/skills/:slug/skill.md", (req) => ({
      status: 200,
      body: SkillsEmulator.markdown(this.get(req.params.slug)),
      headers: { "content-type": "text/markdown; charset=utf-8" },
    }));
    this.route("PUT", "/api/skills/:slug", (req) => {
      this.authorize(req);
      if (!String(req.headers["content-type"] ?? "").includes("application/json"))
        throw new HttpError({ status: 415, body: { error: "Content-Type must be application/json" } });
      const slug = req.params.slug;
      if (!SLUG.test(slug)) throw new HttpError({ status: 400, body: { error: "slug must be kebab-case" } });
      const parsed = SkillBody.safeParse(parseJson(req) ?? null);
      if (!parsed.success)
        throw new HttpError({
          status: 400,
          body: {
            error: parsed.error.issues
              .map((i) => (i.code === "invalid_type" && !i.path.length ? "the body must be a JSON object" : i.message))
              .join("; "),
          },
        });
      const b = parsed.data;
      const skill: Skill = {
        slug,
        name: b.name,
        description: b.description,
        instruction: b.instruction,
        category: b.category,
        tags: b.tags ?? [],
        agents: b.agents ?? [],
        toolsRequired: b.toolsRequired ?? [],
        version: b.version,
        license: b.license,
        compatibility: b.compatibility,
        metadata: b.metadata,
        allowedTools: b.allowedTools,
        updatedAt: new Date(this.now()).toISOString(),
      };
      const created = !this.skills.has(slug);
      this.skills.set(slug, skill);
      if (this.options.putAnswer === "no-content") return { status: 204, body: "" };
      if (this.options.putAnswer === "empty") return { status: created ? 201 : 200, body: "" };
      return { status: created ? 201 : 200, body: skill };
    });
    this.route("DELETE", "/api/skills/:slug", (req) => {
      if (!this.options.allowDelete) throw new HttpError({ status: 405, body: { error: "method not allowed" } });
      this.authorize(req);
      if (this.spuriousDelete404 > 0) {
        this.spuriousDelete404--;
        throw new HttpError({ status: 404, body: { error: `skill ${req.params.slug} not found` } });
      }
      this.get(req.params.slug);
      this.skills.delete(req.params.slug);
      return { status: 204, body: "" };
    });
  }
}
