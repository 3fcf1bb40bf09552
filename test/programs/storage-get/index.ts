/**
 * A stack that reads what another stack made — a KV namespace, an R2 bucket and a D1 database — by the ids the
 * reference gives for `get`: it manages none of them, so its destroy leaves them.
 */
import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const account = config.require("accountId");
const sessions = ops.edge.KvNamespace.get("sessions", `${account}/${config.require("namespaceId")}`);
const files = ops.edge.R2Bucket.get("files", `${account}/default/${config.require("bucketName")}`);
const orders = ops.edge.D1Database.get("orders", `${account}/${config.require("databaseId")}`);

export const sessionsTitle = sessions.title;
export const filesStorageClass = files.storageClass;
export const ordersName = orders.name;
