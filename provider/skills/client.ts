/**
 * The skills registry client (the skills registry's API (docs/emulators.md, its Skills registry section)): list/search, read, read as SKILL.md, upsert with PUT, delete where
 * allowed. Every answer is checked against the shape the registry promises (a wrong URL that answers something else
 * fails here, not later); a PUT answered 201/204 without the skill is followed by a read; a delete is confirmed by a
 * read (a 404 alone is not "deleted"); a search reads every page its answers link to.
 */
import { z } from "zod";
import { SKILLS_SETTINGS, read, readNumber, readUrl, clientPerSettings } from "../config";
import { HttpClient } from "../http/client";
import { ApiError, AuthError, NotFoundError } from "../http/errors";

/** A skill as the registry answers it: the one shape the client checks and the functions return (function-registry.ts). */
export const SKILL_FIELDS = {
  name: z.string().describe("The skill's name."),
  description: z.string().describe("What it does and when to use it."),
  instruction: z.string().describe("The Markdown body."),
  category: z.string().optional().describe("Its category."),
  tags: z.array(z.string()).optional().describe("Search tags."),
  agents: z.array(z.string()).optional().describe("The agents it is for."),
  toolsRequired: z.array(z.string()).optional().describe("Tools it needs."),
  version: z.string().optional().describe("Its version."),
  license: z.string().optional().describe("Its license."),
  compatibility: z.string().optional().describe("What it needs of its environment."),
  metadata: z.record(z.string(), z.string()).optional().describe("Other properties, text by key."),
  allowedTools: z.array(z.string()).optional().describe("Tools it may use without asking."),
};
const Skill = z.looseObject(SKILL_FIELDS);
const Listed = z.looseObject({ slug: z.string(), ...SKILL_FIELDS });
/** A search answer: `skills`, and where more pages exist, `next` (a URL or a path) or `nextCursor`. */
const SearchPage = z.looseObject({ skills: z.array(Listed), next: z.string().nullish(), nextCursor: z.string().nullish() });

export type SkillRecord = z.infer<z.ZodObject<typeof SKILL_FIELDS>> & { slug: string };

export class SkillsClient {
  constructor(private readonly http: HttpClient) {}

  static fromConfig(): SkillsClient {
    const token = read(SKILLS_SETTINGS.token);
    return new SkillsClient(
      new HttpClient({
        service: "skills",
        baseUrl: readUrl(SKILLS_SETTINGS.url),
        headers: token ? { authorization: `Bearer ${token}` } : {},
        timeoutMs: readNumber(SKILLS_SETTINGS.timeoutSeconds) * 1000,
        maxRetries: 5,
        urlKey: "ops:skillsUrl",
      }),
    );
  }

  private async call(
    method: "GET" | "PUT" | "DELETE",
    path: string,
    json?: unknown,
    expect: "json" | "text" = "json",
    query?: Record<string, string>,
  ) {
    const res = await this.http.request(method, path, { expect, ...(json === undefined ? {} : { json }), ...(query ? { query } : {}) });
    if (res.status < 400) return res;
    const message = (res.json as { error?: string })?.error ?? (res.text.slice(0, 200) || `HTTP ${res.status}`);
    const d = { service: "skills", status: res.status, message, method, path };
    if (res.status === 401 || res.status === 403)
      throw new AuthError({ ...d, remedy: "Set the registry's publishing token as ops:skillsToken (SKILLS_TOKEN)" });
    if (res.status === 404) throw new NotFoundError(d);
    throw new ApiError(d);
  }

  /** An answer in the shape the registry promises, or a failure that says what came instead. */
  private shaped<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const got = value === undefined ? "no JSON" : JSON.stringify(value).slice(0, 120);
    throw new ApiError({
      service: "skills",
      message: `${what}: the answer is not a skills registry's (${parsed.error.issues[0]?.path.join(".") || "body"}: ${parsed.error.issues[0]?.message}; got ${got})`,
      remedy: "Check ops:skillsUrl (SKILLS_URL): it must be the registry's base URL",
    });
  }

  async get(slug: string): Promise<SkillRecord> {
    return { ...this.shaped(Skill, (await this.call("GET", `/api/skills/${slug}`)).json, `GET /api/skills/${slug}`), slug };
  }
  async markdown(slug: string): Promise<string> {
    return (await this.call("GET", `/api/skills/${slug}/skill.md`, undefined, "text")).text;
  }
  /** Every skill the search finds, following the pages the answers link to (at most 100 pages). */
  async search(q: string): Promise<SkillRecord[]> {
    const out: SkillRecord[] = [];
    let query: Record<string, string> = { q };
    let path = "/api/skills";
    for (let page = 1; page <= 100; page++) {
      const res = await this.call("GET", path, undefined, "json", query);
      const answer = this.shaped(SearchPage, res.json, `GET ${path}`);
      out.push(...answer.skills);
      if (answer.next) {
        const next = new URL(answer.next, "http://registry.invalid");
        path = next.pathname;
        query = Object.fromEntries(next.searchParams);
      } else if (answer.nextCursor) query = { q, cursor: answer.nextCursor };
      else break;
      if (!answer.skills.length) break;
    }
    return out;
  }
  /** The skill as the registry holds it after the upsert: its answer, or a read when it answered without it (201/204). */
  async put(slug: string, skill: Omit<SkillRecord, "slug">): Promise<SkillRecord> {
    const res = await this.call("PUT", `/api/skills/${slug}`, skill, "text");
    const body = res.text.trim()
      ? (() => {
          try {
            return JSON.parse(res.text);
          } catch {
            return undefined;
          }
        })()
      : undefined;
    const parsed = Skill.safeParse(body);
    if (parsed.success) return { ...parsed.data, slug };
    return this.get(slug);
  }
  /**
   * True when the skill is gone (confirmed by a read: a 404 to the delete alone is not enough); false when the
   * registry offers no delete (it answers 405).
   */
  async delete(slug: string): Promise<boolean> {
    try {
      await this.call("DELETE", `/api/skills/${slug}`, undefined, "text");
    } catch (e) {
      if (e instanceof ApiError && e.status === 405) return false;
      if (!(e instanceof NotFoundError)) throw e;
    }
    try {
      await this.get(slug);
    } catch (e) {
      if (e instanceof NotFoundError) return true;
      throw e;
    }
    throw new ApiError({
      service: "skills",
      message: `skill ${slug} is still published after its delete`,
      remedy: "Remove it in the registry, then run again",
    });
  }
}

export const skills: () => SkillsClient = clientPerSettings(
  [SKILLS_SETTINGS.url, SKILLS_SETTINGS.token, SKILLS_SETTINGS.timeoutSeconds],
  () => SkillsClient.fromConfig(),
);
