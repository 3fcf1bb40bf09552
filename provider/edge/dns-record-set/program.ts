/** What a DnsRecordSet's class does in the program's process (provider/program-side.ts). */
import * as pulumi from "@pulumi/pulumi";
import { settled, type ProgramSide } from "../../program-side";
import { noteRecordIds } from "../program-records";
import { recordsAndIds, recordsToText } from "./text";

export const program: ProgramSide = {
  // The engine carries the records as one text, a line per record (text.ts): a map of 10,000 objects costs it
  // seconds at every step, one string almost nothing. The program reads maps.
  register(args, opts) {
    return { args: args?.records === undefined ? args : { ...args, records: compact(args.records) }, opts };
  },
  // Outputs carry the ids in the records' lines (a state written by 0.2.0 has maps until its next up). They are
  // read back into maps on first use: most programs never read a set's records, and 10,000 of them cost time and
  // memory in the program's process.
  constructed(resource) {
    const { records: text, ids } = resource as unknown as { records: pulumi.Output<unknown>; ids: pulumi.Output<unknown> };
    let both: pulumi.Output<{ records: unknown; ids: unknown }> | undefined;
    // The ids are read from the text alone where it has them: a preview's unchanged set has no `ids` output (the
    // state keeps none), and an apply over it would make every id, and what is built from them, unknown there. A
    // text without ids (a changed set's, at preview) waits on the `ids` output: unknown there, never wrong.
    const read = () =>
      (both ??= text.apply((r) => {
        const parsed: { records: unknown; ids?: unknown } = typeof r === "string" ? recordsAndIds(r) : { records: r };
        return parsed.ids
          ? pulumi.output({ records: parsed.records, ids: parsed.ids })
          : ids.apply((i) => ({ records: parsed.records, ids: i }));
      }) as pulumi.Output<{ records: unknown; ids: unknown }>);
    const lazily = (pick: (b: { records: unknown; ids: unknown }) => unknown) => {
      let out: pulumi.Output<unknown> | undefined;
      return { get: () => (out ??= read().apply(pick)), enumerable: true };
    };
    Object.defineProperty(
      resource,
      "records",
      lazily((b) => b.records),
    );
    Object.defineProperty(
      resource,
      "ids",
      lazily((b) => b.ids),
    );
    noteRecordIds(() => read().apply((b) => Object.values((b.ids ?? {}) as Record<string, string>)));
  },
};

function compact(records: unknown): unknown {
  if (!records || typeof records !== "object") return records; // check names what is wrong with it
  if (settled(records)) return recordsToText(records as Record<string, unknown>);
  return pulumi.output(records).apply((r) => recordsToText(r as Record<string, unknown>));
}
