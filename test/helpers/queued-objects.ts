/**
 * What the emulators hold of test/programs/queued's objects (records, posts, page posts, page rules), as the tests
 * of a killed run count them: one of each, or a duplicate.
 */
import { DEMO_TOKEN, PAGE_ID, type EdgeEmulator, type PagesEmulator, type PostsEmulator } from "../../emulators";

export function queuedObjects(services: () => { edge: EdgeEmulator; posts: PostsEmulator; pages: PagesEmulator }) {
  const exampleCom = () => [...services().edge.zones.values()].find((z) => z.name === "example.com")!;
  return {
    records: () => [...exampleCom().records.values()].map((r) => r.name).sort(),
    texts: () => [...services().posts.posts.values()].map((p) => p.text ?? "").sort(),
    pagePosts: () => [...services().pages.posts.values()].filter((p) => p.pageId === PAGE_ID).map((p) => p.message),
    async pageRules(): Promise<string[]> {
      const res = await fetch(`${services().edge.url}/client/v4/zones/${exampleCom().id}/pagerules`, {
        headers: { authorization: `Bearer ${DEMO_TOKEN}` },
      });
      return ((await res.json()) as { result: { targets: { constraint: { value: string } }[] }[] }).result.map(
        (r) => r.targets[0].constraint.value,
      );
    },
  };
}
