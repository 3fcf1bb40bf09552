/**
 * The account's storage for Workers (API reference, "Workers KV Namespace"): KV namespaces made by title, listed
 * page by page, renamed in place and deleted with what they hold. EdgeClient (client.ts) builds on it.
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
}
