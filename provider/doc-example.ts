/**
 * A documentation example as data, one per resource (its folder's schema.ts, `example`) and function
 * (scripts/reference-examples.ts): scripts/example-render.ts writes it in TypeScript, Python, Go and YAML from the
 * schema, and the tests run or compile all four, the YAML ones through the engine against the emulators, so the values
 * must be ones the services accept (the emulators' seed data: zone example.com, page 200000000000001, remote desktop
 * kiosk.local).
 */

/** Another step's output, by path: `zone.id`, `writer.name`, `latest.posts[0].id`. */
export class Ref {
  constructor(readonly path: string) {}
}
export const ref = (path: string) => new Ref(path);

export type Value = string | number | boolean | Ref | Value[] | { [key: string]: Value };

export interface Step {
  /** A resource (`ops:edge:DnsRecord`) or a function (`ops:edge:getZone`), by schema token. */
  token: string;
  /** The variable, and a resource's name. */
  name: string;
  args: Record<string, Value>;
}

export interface Example {
  /** Steps before the one the example is for: what it takes its inputs from. */
  before?: Step[];
  step: Omit<Step, "token">;
  /** Stack outputs, for a function's example: what it answers. */
  exports?: Record<string, Ref>;
}
