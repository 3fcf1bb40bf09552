/**
 * The dynamic-provider door. Pulumi serializes each provider object into the state of every resource it serves,
 * and runs that text in the provider process later, possibly with a newer pulumi-ops installed. So each object:
 * - captures nothing but its type token (no clients, no imports): `__provider` stays small and stable;
 * - `require`s the installed package's door at call time, resolved from the program's directory, so an upgraded
 *   package also serves read and delete of resources created by an older one.
 * One object per resource type: Pulumi caches serialization by object identity.
 *
 * Each object is the whole `module.exports` of its own module in provider/providers/. When pulumi-ops is installed
 * under node_modules, Pulumi's closure serializer then stores `require("pulumi-ops/dist/provider/providers/<x>")`
 * instead of the object's code: about 300 bytes instead of 2.7 KB, stored twice per resource. Those module paths
 * are therefore part of users' state and must keep existing in later versions. (Linked from outside node_modules,
 * as in this repository, the object is copied by value and still captures only its type token.)
 */
import type * as pulumi from "@pulumi/pulumi";

export function providerFor(type: string): pulumi.dynamic.ResourceProvider {
  return {
    async configure(req) {
      require("pulumi-ops/dist/provider/door").configure(req.config);
    },
    async check(olds, news) {
      return require("pulumi-ops/dist/provider/door").checkForEngine(type, olds, news);
    },
    async diff(id, olds, news) {
      return require("pulumi-ops/dist/provider/door").call(type, "diff", [id, olds, news]);
    },
    async create(inputs) {
      return require("pulumi-ops/dist/provider/door").callDynamic(type, "create", [inputs]);
    },
    async read(id, props) {
      return require("pulumi-ops/dist/provider/door").callDynamic(type, "read", [id, props]);
    },
    async update(id, olds, news) {
      return require("pulumi-ops/dist/provider/door").callDynamic(type, "update", [id, olds, news]);
    },
    async delete(id, props) {
      return require("pulumi-ops/dist/provider/door").call(type, "delete", [id, props]);
    },
  };
}
