/**
 * The standalone plugin's entry (scripts/build-plugin.ts bundles it into one file and a Node single executable per
 * platform): serves the same plugin as the package's `pulumi-resource-ops` bin, with no Node or npm on the machine.
 */
import { serve } from "./plugin";

serve();
