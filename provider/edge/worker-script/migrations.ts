/**
 * A WorkerScript's Durable Object migrations, as wrangler's `[[migrations]]` are: an ordered list of tagged steps
 * (classes made, made SQLite-backed, renamed, deleted, transferred from another script). The service applies a step
 * once and keeps the tag of the last one applied (`migration_tag`, in the script list and the upload's answer); an
 * upload sends the steps after that tag, as wrangler does (`{old_tag, new_tag, steps}`; none once the last tag is
 * there). A Durable Object binding to the script's own class needs the migration that made the class.
 */
import { z } from "zod";
import { ruleFailure } from "../../check";
import { warn } from "../../log";

const className = z
  .string()
  .regex(/^[A-Za-z_$][A-Za-z0-9_$]*$/, "a Durable Object class name is a JavaScript identifier (the exported class)");

export const Migration = z
  .object({
    tag: z
      .string()
      .min(1, "a migration's tag must not be empty")
      .describe("The step's tag (such as `v1`): the service keeps the last one applied."),
    newClasses: z.array(className).optional().describe("Classes made Durable Objects with key-value storage."),
    newSqliteClasses: z
      .array(className)
      .optional()
      .describe("Classes made Durable Objects with SQLite storage (what new classes use today)."),
    renamedClasses: z
      .array(z.object({ from: className.describe("The class's old name."), to: className.describe("Its new name.") }))
      .optional()
      .describe("Classes renamed, their objects and storage kept."),
    deletedClasses: z.array(className).optional().describe("Classes deleted, with every object's storage: the data is lost."),
    transferredClasses: z
      .array(
        z.object({
          from: className.describe("The class's name in the other script."),
          fromScript: z.string().min(1).describe("The script the class moves from."),
          to: className.describe("Its name in this script."),
        }),
      )
      .optional()
      .describe("Classes moved here from another script, their objects and storage kept."),
  })
  .describe("A Durable Object migration step (wrangler's `[[migrations]]`).");
export type Migration = z.output<typeof Migration>;

/** The check of the list: tags unique, each step changing something. */
export function checkMigrations(list: readonly Migration[] | undefined, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  list?.forEach((m, i) => {
    if (seen.has(m.tag)) ruleFailure(ctx, `migrations[${i}].tag`, `the tag ${m.tag} is given twice: each migration has its own tag`);
    seen.add(m.tag);
    const { tag: _t, ...steps } = m;
    if (!Object.values(steps).some((v) => Array.isArray(v) && v.length))
      ruleFailure(
        ctx,
        `migrations[${i}]`,
        `the migration ${m.tag} changes nothing: give newSqliteClasses, newClasses, renamedClasses, deletedClasses or transferredClasses`,
      );
  });
}

/** The tag the program's migrations end with. */
export const lastTag = (list: readonly Migration[] | undefined) => list?.at(-1)?.tag;

const stepOf = (m: Migration) => ({
  ...(m.newClasses?.length ? { new_classes: m.newClasses } : {}),
  ...(m.newSqliteClasses?.length ? { new_sqlite_classes: m.newSqliteClasses } : {}),
  ...(m.renamedClasses?.length ? { renamed_classes: m.renamedClasses } : {}),
  ...(m.deletedClasses?.length ? { deleted_classes: m.deletedClasses } : {}),
  ...(m.transferredClasses?.length
    ? { transferred_classes: m.transferredClasses.map((t) => ({ from: t.from, from_script: t.fromScript, to: t.to })) }
    : {}),
});

/** The steps after `current` (the script's tag; none: a new script or one never migrated). */
export function pending(list: readonly Migration[] | undefined, current: string | undefined): Migration[] {
  if (!list?.length) return [];
  if (current === undefined) return [...list];
  const at = list.findIndex((m) => m.tag === current);
  return at < 0 ? [...list] : list.slice(at + 1);
}

/** The upload metadata's `migrations` for a script whose tag is `current`, as wrangler sends them; none to apply: undefined. */
export function migrationsFor(list: readonly Migration[] | undefined, current: string | undefined, script: string) {
  if (!list?.length) return undefined;
  for (const line of current !== undefined && !list.some((m) => m.tag === current) ? migrationsSaid(list, current, script) : []) warn(line);
  const steps = pending(list, current);
  if (!steps.length) return undefined;
  return { ...(current !== undefined ? { old_tag: current } : {}), new_tag: lastTag(list)!, steps: steps.map(stepOf) };
}

/**
 * What a preview says of the steps an up applies to the script whose tag is `current`: a tag the program does not
 * have (every step is sent again, as wrangler does, and the service refuses one that makes a class the script has),
 * or the classes a step deletes, with their objects' storage.
 */
export function migrationsSaid(list: readonly Migration[], current: string | undefined, script: string): string[] {
  if (current !== undefined && !list.some((m) => m.tag === current))
    return [
      `edge: the script ${script} has the Durable Object migration tag ${current}, which is not among the program's migrations: up sends every step again (as wrangler does), which the service refuses for a class the script has (10074); add the steps applied elsewhere, up to ${current}, to migrations`,
    ];
  const steps = pending(list, current).filter((m) => m.deletedClasses?.length);
  const deleted = steps.flatMap((m) => m.deletedClasses!);
  if (!deleted.length) return [];
  const them = deleted.length > 1 ? "them" : "it";
  return [
    `edge: the script ${script} applies the Durable Object migration${steps.length > 1 ? "s" : ""} ${steps.map((m) => m.tag).join(", ")}, which deletes the class${deleted.length > 1 ? "es" : ""} ${deleted.join(", ")}: the storage of every object of ${them} is lost`,
  ];
}
