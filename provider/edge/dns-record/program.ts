/** What a DnsRecord's class does in the program's process (provider/program-side.ts). */
import type { ProgramSide } from "../../program-side";
import { noteRecordIds } from "../program-records";

export const program: ProgramSide = {
  // Its id, for getUnmanagedRecords to leave out (program-records.ts); DnsRecord.get manages nothing.
  constructed(resource, opts) {
    if (!opts?.id) noteRecordIds(() => resource.id.apply((id) => [String(id).split("/").pop()!]));
  },
};
