import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/pages-PageRole";
import { outputSlots, refuseImport } from "../types";
import { pageRoleOutputNames, type PageRoleArgs, type PageRoleOutputs as Out } from "./types";

export type { PageRoleArgs };

/**
 * A user's role on a page (`ADMIN`, `EDITOR`, `MODERATOR`, `ADVERTISER`, `ANALYST`). A role change is an update in
 * place; destroy removes the role. Needs a page token of an admin of the page.
 *
 *     new ops.pages.PageRole("alice", { pageId: "200000000000001", user: "300000000000002", role: "MODERATOR" });
 */
export class PageRole extends pulumi.dynamic.Resource {
  declare readonly pageId: pulumi.Output<Out["pageId"]>;
  declare readonly user: pulumi.Output<Out["user"]>;
  declare readonly role: pulumi.Output<Out["role"]>;
  declare readonly userName: pulumi.Output<Out["userName"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: PageRoleArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("pages.PageRole", name, opts, false);
    super(provider, name, { ...outputSlots(pageRoleOutputNames), ...args }, opts, "pages", "PageRole");
  }

  /** Reads an existing object without managing it. `id` is `<pageId>/<user>`. */
  static get(name: string, id: pulumi.Input<string>, state?: { account?: pulumi.Input<string> }, opts?: pulumi.CustomResourceOptions): PageRole {
    return new PageRole(name, { ...state } as PageRoleArgs, { ...opts, id });
  }
}
