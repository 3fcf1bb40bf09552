/**
 * The components of the package: resources made of its resources, built in the program by the TypeScript SDK and,
 * for the other languages, by the plugin when the engine asks it to construct one (schema.json marks them
 * `isComponent`). Their inputs and outputs are zod schemas, as the resources' are.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { Example } from "./doc-example";
import * as thread from "./posts/thread/schema";
import { constructThread } from "./posts/thread/component";

export interface ComponentEntry {
  description: string;
  inputs: z.ZodObject;
  outputs: z.ZodObject;
  /** The reference's example, in every language (scripts/example-render.ts), run by the tests. */
  example: Example;
  construct(
    name: string,
    inputs: pulumi.Inputs,
    opts: pulumi.ComponentResourceOptions,
  ): Promise<{ urn: pulumi.Output<string>; state: pulumi.Inputs }>;
}

export const components: Record<string, ComponentEntry> = {
  [thread.token]: {
    description: thread.description,
    inputs: thread.ThreadInputs,
    outputs: thread.ThreadOutputs,
    example: thread.example,
    construct: constructThread,
  },
};
