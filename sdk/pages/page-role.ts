import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import provider from "../../provider/providers/pages-PageRole";
import { PageRoleOutputs, type PageRoleInputs } from "../../provider/pages/page-role/schema";
import { outputSlots, type InputsOf } from "../types";


export type PageRoleArgs = InputsOf<z.input<typeof PageRoleInputs>>;
type Out = z.infer<typeof PageRoleOutputs>;

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

  constructor(name: string, args: PageRoleArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { ...outputSlots(PageRoleOutputs), ...args }, opts, "pages", "PageRole");
  }

  /** Reads an existing object without managing it. `id` is `<pageId>/<user>`. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): PageRole {
    return new PageRole(name, {} as PageRoleArgs, { ...opts, id });
  }
}
