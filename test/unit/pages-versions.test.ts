import { describe, expect, it } from "vitest";
import { DEFAULT_VERSION, oldestLive, versionWarning } from "../../provider/pages/versions";

const on = (day: string) => Date.parse(`${day}T12:00:00Z`);

describe("page-management API versions", () => {
  it("the default is live and expires in no announced time", () => {
    expect(DEFAULT_VERSION).toBe("v26.0");
    expect(versionWarning(DEFAULT_VERSION, on("2026-11-25"))).toBeUndefined();
  });

  it("an expired version is told with the version that answers it instead, and the fix", () => {
    expect(oldestLive(on("2026-11-25"))).toBe("v21.0");
    expect(versionWarning("v18.0", on("2026-11-25"))).toBe(
      "pages: API version v18.0 expired on 2026-01-26: the service answers its calls as the oldest live version (v21.0), which changes under this stack each time a version expires. Set ops:pagesApiVersion to v26.0",
    );
  });

  it("a version expiring within 90 days is warned about with the days left; one further off is not", () => {
    expect(versionWarning("v21.0", on("2026-11-25"))).toMatch(/v21\.0 expires on 2027-01-21 \(in 57 days\)/);
    expect(versionWarning("v22.0", on("2026-11-25"))).toBeUndefined();
    expect(versionWarning("v22.0", on("2027-03-01"))).toMatch(/expires on 2027-05-20/);
    expect(versionWarning("v30.0", on("2026-11-25"))).toBeUndefined(); // newer than this release knows
  });
});
