/** The skills registry client (Document 3, D): list/search, read, read as SKILL.md, upsert with PUT, delete where allowed. */
import { SKILLS_SETTINGS, read, readNumber, readUrl, clientPerSettings } from "../config";
import { HttpClient } from "../http/client";
import { ApiError, AuthError, NotFoundError } from "../http/errors";

export interface SkillRecord {
  slug: string;
  name: string;
  description: string;
  instruction: string;
  category?: string;
  tags?: string[];
  agents?: string[];
  toolsRequired?: string[];
  version?: string;
}

export class SkillsClient {
  constructor(private readonly http: HttpClient) {}

  static fromConfig(): SkillsClient {
    const token = read(SKILLS_SETTINGS.token);
    return new SkillsClient(new HttpClient({ service: "skills", baseUrl: readUrl(SKILLS_SETTINGS.url), headers: token ? { authorization: `Bearer ${token}` } : {}, timeoutMs: readNumber(SKILLS_SETTINGS.timeoutSeconds) * 1000, maxRetries: 5, urlKey: "ops:skillsUrl" }));
  }

  private async call(method: "GET" | "PUT" | "DELETE", path: string, json?: unknown, expect: "json" | "text" = "json") {
    const res = await this.http.request(method, path, json === undefined ? { expect } : { json, expect });
    if (res.status < 400) return res;
    const message = (res.json as { error?: string })?.error ?? (res.text.slice(0, 200) || `HTTP ${res.status}`);
    const d = { service: "skills", status: res.status, message, method, path };
    if (res.status === 401 || res.status === 403) throw new AuthError({ ...d, remedy: "Set the registry's publishing token as ops:skillsToken (SKILLS_TOKEN)" });
    if (res.status === 404) throw new NotFoundError(d);
    throw new ApiError(d);
  }

  async get(slug: string): Promise<SkillRecord> {
    return (await this.call("GET", `/api/skills/${slug}`)).json as SkillRecord;
  }
  async markdown(slug: string): Promise<string> {
    return (await this.call("GET", `/api/skills/${slug}/skill.md`, undefined, "text")).text;
  }
  async search(q: string): Promise<SkillRecord[]> {
    const res = await this.http.request("GET", "/api/skills", { query: { q } });
    return (res.json as { skills: SkillRecord[] }).skills;
  }
  async put(slug: string, skill: Omit<SkillRecord, "slug">): Promise<SkillRecord> {
    return (await this.call("PUT", `/api/skills/${slug}`, skill)).json as SkillRecord;
  }
  /** True when deleted; false when the registry offers no delete (it answers 405). */
  async delete(slug: string): Promise<boolean> {
    try {
      await this.call("DELETE", `/api/skills/${slug}`);
      return true;
    } catch (e) {
      if (e instanceof NotFoundError) return true;
      if (e instanceof ApiError && e.status === 405) return false;
      throw e;
    }
  }
}

export const skills: () => SkillsClient = clientPerSettings([SKILLS_SETTINGS.url, SKILLS_SETTINGS.token, SKILLS_SETTINGS.timeoutSeconds], () => SkillsClient.fromConfig());
