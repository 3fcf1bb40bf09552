/**
 * D1 databases as the service keeps them (API reference, "D1 Database"; the official `cloudflare` SDKs'
 * `d1.database`): made by name (`POST .../d1/database` with `name`, `primary_location_hint`; a name the account holds
 * already is refused with 7502, whose message the service leaves at "Internal error"), read by uuid (404 with 7404
 * when gone), deleted with their data, and queried (`POST .../{uuid}/query` with `sql` and `params`). Each database
 * is an SQLite database in memory (Node's node:sqlite), as D1's are SQLite.
 */
import { createRequire } from "node:module";
import type { Request } from "../kit";
import { fail } from "./dns";
import type { EdgeRoute } from "./access";
import type { EdgeEmulator } from "./server";

type Sqlite = { exec(sql: string): void; prepare(sql: string): { all(...p: unknown[]): unknown[]; run(...p: unknown[]): unknown } };

export interface StoredDatabase {
  uuid: string;
  name: string;
  created_at: string;
  primary_location_hint?: string;
  db: Sqlite;
}

const HINTS = ["wnam", "enam", "weur", "eeur", "apac", "oc"];

/** An empty SQLite database (node:sqlite is loaded when the first is made: it warns that it is experimental). */
export function newDatabase(): Sqlite {
  const { DatabaseSync } = createRequire(__filename)("node:sqlite") as { DatabaseSync: new (path: string) => Sqlite };
  return new DatabaseSync(":memory:");
}

export function registerD1Routes(emu: EdgeEmulator, r: EdgeRoute): void {
  const account = (req: Request) => emu.account(req);
  const view = (d: StoredDatabase) => ({
    uuid: d.uuid,
    name: d.name,
    version: "production",
    created_at: d.created_at,
    num_tables: (d.db.prepare("select count(*) as n from sqlite_master where type = 'table'").all()[0] as { n: number }).n,
    file_size: 8192,
  });
  const database = (req: Request) => {
    account(req);
    return emu.databases.get(req.params.id) ?? fail(404, 7404, `The database ${req.params.id} could not be found`);
  };
  const base = "/accounts/:account/d1/database";

  r("GET", base, "d1:read", (req) => {
    account(req);
    const name = req.query.get("name");
    const all = [...emu.databases.values()].filter((d) => !name || d.name === name).sort((a, b) => a.name.localeCompare(b.name));
    return emu.page(req, all.map(view), { perPage: 1000, min: 10, max: 10000 });
  });
  r("POST", base, "d1:edit", (req) => {
    account(req);
    const body = JSON.parse(req.rawBody || "{}");
    if (typeof body.name !== "string" || !body.name.trim()) fail(400, 7400, "The request is malformed: name is required");
    if (body.primary_location_hint !== undefined && !HINTS.includes(body.primary_location_hint))
      fail(400, 7400, `The request is malformed: primary_location_hint must be one of ${HINTS.join(", ")}`);
    if ([...emu.databases.values()].some((d) => d.name === body.name)) fail(400, 7502, "Internal error");
    const d: StoredDatabase = {
      uuid: emu.nextUuid(),
      name: body.name,
      created_at: emu.timestamp(),
      primary_location_hint: body.primary_location_hint,
      db: newDatabase(),
    };
    emu.databases.set(d.uuid, d);
    return emu.ok(view(d));
  });
  r("GET", `${base}/:id`, "d1:read", (req) => emu.ok(view(database(req))));
  r("DELETE", `${base}/:id`, "d1:edit", (req) => {
    emu.databases.delete(database(req).uuid);
    return emu.ok(null);
  });
  r("POST", `${base}/:id/query`, "d1:edit", (req) => {
    const d = database(req);
    const body = JSON.parse(req.rawBody || "{}");
    try {
      const stmt = d.db.prepare(String(body.sql));
      const rows = /^\s*(select|with|pragma)/i.test(String(body.sql))
        ? stmt.all(...(body.params ?? []))
        : (stmt.run(...(body.params ?? [])), []);
      return emu.ok([{ results: rows, success: true, meta: { changed_db: rows.length === 0, rows_read: rows.length } }]);
    } catch (e) {
      return fail(400, 7500, `${(e as Error).message}: SQLITE_ERROR`);
    }
  });
}
