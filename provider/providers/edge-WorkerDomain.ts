// The serialized provider of edge:WorkerDomain: this module's exports are the whole object, so a program that installed
// pulumi-ops under node_modules stores `require(<this module>)` in state instead of the object's code.
import { providerFor } from "../dynamic";

export = providerFor("edge:WorkerDomain");
