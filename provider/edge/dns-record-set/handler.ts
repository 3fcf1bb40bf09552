/**
 * `ops.edge.DnsRecordSet`: check / diff / create / read / update / delete of many records as one resource. Every
 * guarantee of the single DnsRecord holds per record (validation naming the key, normalisation, adoption, no
 * duplicate after a lost answer); up sends only the records that change, in parallel under the account's
 * allowance; refresh is one listing of the zone. A partial failure ends as a partial create or update: the state
 * then holds exactly the records that exist, so the next up finishes the rest and nothing is orphaned.
 * id: `<zoneId>/set-<random>` (the service keeps no object for the set itself).
 */
import { withoutProvider } from "../../check";
import { PartialCreateError, type Bag, type Handler } from "../../handler";
import { dnsRules } from "../dns-rules";
import { holdFromState } from "../dns-record/handler";
import { zoneChanged } from "../zone-ref";
import { zoneKnownAtPreview } from "../zones";
import type { DnsRecordSetInputs, DnsRecordSetOutputs } from "./schema";
import { compacted, expanded, isCompact, withoutIds } from "./text";
import { reviewPlan } from "./review";
import { authorityChanged, onMaps } from "./on-maps";

/**
 * The handler the doors call: asked with the compact form (text.ts: the TypeScript classes send the records as one
 * text), it works on maps and answers in text; asked with maps (the plugin door's schema), in maps. State written
 * before the compact form (maps) is rewritten in it by an update that sends nothing.
 */
// Untyped: the engine carries the records as text (text.ts); the handler on maps (on-maps.ts) is the typed one.
export const dnsRecordSet: Handler = {
  // A CNAME beside another record of the program (no request), or beside one on the service (a read).
  preview: (ctx) => dnsRules(ctx.type, ctx.inputs, ctx.olds, ctx.reads),
  knownAtPreview: zoneKnownAtPreview,
  async check(olds, news) {
    if (!isCompact(news)) return onMaps.check(olds, news);
    let records: Bag;
    try {
      records = expanded(news);
    } catch (e) {
      return { inputs: news, failures: [{ property: "records", reason: `${(e as Error).message}: pass the records as a map` }] };
    }
    const r = await onMaps.check(olds, records);
    return r.failures.length ? { inputs: news, failures: r.failures } : { inputs: compacted(r.inputs), failures: [] };
  },

  async diff(id, olds, news) {
    if (isCompact(olds)) holdFromState(olds.zoneId, Object.values(expanded(olds).ids ?? {}) as string[]); // in state: never another's to adopt
    // The common case, nothing changed: the texts agree line for line once the outputs' ids are set aside.
    if (
      isCompact(olds) &&
      isCompact(news) &&
      news.authoritative !== true &&
      !authorityChanged(olds, news) &&
      !zoneChanged(withoutProvider(news), olds as DnsRecordSetOutputs) &&
      withoutIds(olds.records as string) === news.records
    ) {
      await reviewPlan(
        { id: olds.zoneId as string, name: olds.zoneName as string },
        { records: {} },
        (expanded(olds).ids ?? {}) as Record<string, string>,
        { updates: 0, deletes: 0 },
        id,
      );
      return { changes: false };
    }
    const d = await onMaps.diff(id, expanded(olds), expanded(news));
    const fromMaps = isCompact(news) && !isCompact(olds) && !!olds.records;
    return fromMaps ? { ...d, changes: true } : d;
  },

  async create(inputs) {
    const r = await answerIn(inputs, () => onMaps.create(expanded(inputs) as DnsRecordSetInputs));
    return isCompact(inputs) ? { ...r, outs: compacted(r.outs) } : r;
  },

  async read(id, props) {
    const r = await onMaps.read(id, expanded(props));
    return isCompact(props) ? { ...r, props: compacted(r.props), ...(r.inputs ? { inputs: compacted(r.inputs) } : {}) } : r;
  },

  async update(id, olds, news) {
    const r = await answerIn(news, () => onMaps.update(id, expanded(olds), expanded(news) as DnsRecordSetInputs));
    return isCompact(news) ? { ...r, outs: compacted(r.outs) } : r;
  },

  async delete(id, props) {
    await onMaps.delete(id, expanded(props));
  },
};

/** A partial create or update keeps what exists in state: in the form the call came in. */
async function answerIn<T>(asked: Bag, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof PartialCreateError && isCompact(asked)) throw new PartialCreateError(e.message, e.id, compacted(e.properties));
    throw e;
  }
}
