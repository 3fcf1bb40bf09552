/**
 * The account's storage for Workers (API reference, "Workers KV Namespace", "R2 Buckets", "D1 Database"): KV
 * namespaces made by title, renamed in place; R2 buckets by name in a jurisdiction, their default storage class
 * changed in place; D1 databases by name, read by uuid. EdgeClient (client.ts) builds on it.
 */
import { z } from "zod";
import { EdgeApi } from "./api";
import * as wire from "./wire";

export class StorageApi extends EdgeApi {
  /** Every namespace of the account, by title (the service's `order=title`). */
  async listKvNamespaces(accountId: string): Promise<wire.KvNamespace[]> {
    return Array.fromAsync(this.pages(`/accounts/${accountId}/storage/kv/namespaces`, wire.KvNamespace, { order: "title" }, 100));
  }
  async getKvNamespace(accountId: string, id: string) {
    return (await this.call("GET", `/accounts/${accountId}/storage/kv/namespaces/${id}`, wire.KvNamespace)).result;
  }
  /** Refused (10014) when the account has a namespace of this title: never two, so a lost answer is found by title. */
  async createKvNamespace(accountId: string, body: { title: string; jurisdiction?: string }) {
    return (await this.call("POST", `/accounts/${accountId}/storage/kv/namespaces`, wire.KvNamespace, { json: body })).result;
  }
  async renameKvNamespace(accountId: string, id: string, title: string) {
    const path = `/accounts/${accountId}/storage/kv/namespaces/${id}`;
    // Older answers carry no namespace (`result: null`): it is read again then.
    const { result } = await this.call("PUT", path, wire.KvNamespace.nullish(), { json: { title }, idempotent: true });
    return result ?? this.getKvNamespace(accountId, id);
  }
  async deleteKvNamespace(accountId: string, id: string) {
    await this.call("DELETE", `/accounts/${accountId}/storage/kv/namespaces/${id}`, z.unknown());
  }

  // R2 buckets: every call names the bucket's jurisdiction in a header (none: the default one).
  private r2(jurisdiction?: string): Record<string, string> {
    return jurisdiction && jurisdiction !== "default" ? { "cf-r2-jurisdiction": jurisdiction } : {};
  }
  async listR2Buckets(accountId: string, jurisdiction?: string) {
    const path = `/accounts/${accountId}/r2/buckets`;
    const res = await this.call("GET", path, z.object({ buckets: wire.R2Bucket.array() }), {
      headers: this.r2(jurisdiction),
      query: { per_page: 1000 },
    });
    return res.result.buckets;
  }
  async getR2Bucket(accountId: string, name: string, jurisdiction?: string) {
    return (await this.call("GET", `/accounts/${accountId}/r2/buckets/${name}`, wire.R2Bucket, { headers: this.r2(jurisdiction) })).result;
  }
  /** Refused (10073 or 10004) when the account holds the name: a lost answer is found by name. */
  async createR2Bucket(accountId: string, body: { name: string; locationHint?: string; storageClass?: string }, jurisdiction?: string) {
    return (await this.call("POST", `/accounts/${accountId}/r2/buckets`, wire.R2Bucket, { json: body, headers: this.r2(jurisdiction) }))
      .result;
  }
  async setR2StorageClass(accountId: string, name: string, storageClass: string, jurisdiction?: string) {
    const headers = { ...this.r2(jurisdiction), "cf-r2-storage-class": storageClass };
    return (await this.call("PATCH", `/accounts/${accountId}/r2/buckets/${name}`, wire.R2Bucket, { headers, idempotent: true })).result;
  }
  async deleteR2Bucket(accountId: string, name: string, jurisdiction?: string) {
    await this.call("DELETE", `/accounts/${accountId}/r2/buckets/${name}`, z.unknown(), { headers: this.r2(jurisdiction) });
  }

  // D1 databases, by uuid.
  async listD1Databases(accountId: string, name?: string) {
    return Array.fromAsync(this.pages(`/accounts/${accountId}/d1/database`, wire.D1Database, { name }, 1000));
  }
  async getD1Database(accountId: string, uuid: string) {
    return (await this.call("GET", `/accounts/${accountId}/d1/database/${uuid}`, wire.D1Database)).result;
  }
  /** Refused (7502) when the account holds the name: a lost answer is found by name. */
  async createD1Database(accountId: string, body: { name: string; primary_location_hint?: string }) {
    return (await this.call("POST", `/accounts/${accountId}/d1/database`, wire.D1Database, { json: body })).result;
  }
  async deleteD1Database(accountId: string, uuid: string) {
    await this.call("DELETE", `/accounts/${accountId}/d1/database/${uuid}`, z.unknown());
  }
}
