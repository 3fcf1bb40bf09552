import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/pages-PageRole";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, setOutputs, CheckedResource } from "../types";
import { pageRoleOutputNames, type PageRoleArgs, type PageRoleOutputs as Out } from "./types";

export type { PageRoleArgs };

/**
 * A person's access to a page, granted as the service grants it today: tasks given through the page's business
 * (`/{page}/assigned_users`). A `role` (`ADMIN`, `EDITOR`, `MODERATOR`, `ADVERTISER`, `ANALYST`) stands for its
 * tasks; `tasks` (`MANAGE`, `CREATE_CONTENT`, `MODERATE`, `MESSAGING`, `ADVERTISE`, `ANALYZE`) may be given instead. A
 * change is an update in place; destroy removes the access. Needs a page token of someone with the MANAGE task, and
 * pages_manage_metadata.
 *
 *     new ops.pages.PageRole("helper", { pageId: "200000000000001", user: "300000000000003", role: "MODERATOR" });
 */
export class PageRole extends CheckedResource {
  declare readonly pageId: pulumi.Output<Out["pageId"]>;
  declare readonly user: pulumi.Output<Out["user"]>;
  declare readonly role: pulumi.Output<Out["role"]>;
  declare readonly tasks: pulumi.Output<Out["tasks"]>;
  declare readonly business: pulumi.Output<Out["business"]>;
  declare readonly userName: pulumi.Output<Out["userName"]>;
  declare readonly adopt: pulumi.Output<Out["adopt"]>;
  declare readonly previousTasks: pulumi.Output<Out["previousTasks"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: PageRoleArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("pages.PageRole", name, opts, true);
    super(
      provider,
      name,
      { ...outputSlots(pageRoleOutputNames), ...args, ...ownerSlot(name, opts), ...secretsSlot(args, opts) },
      opts,
      "pages",
      "PageRole",
    );
    setOutputs(this, ["tasks"]);
  }

  /** Reads an existing object without managing it. `id` is `<pageId>/<user>`. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    state?: { account?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): PageRole {
    return new PageRole(name, { ...state } as PageRoleArgs, { ...opts, id });
  }
}
