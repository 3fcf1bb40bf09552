/**
 * The page service's state at start and after a reset: the seeded page (and the extra pages a test asks for) with its
 * admin and moderator, and the tokens of the cast (directory.ts) each with its scopes.
 */
import {
  BUSINESS_ID,
  PAGE_ID,
  PAGES_APP,
  PAGES_EXPIRED_TOKEN,
  PAGES_MODERATOR_TOKEN,
  PAGES_PAGE_TOKEN,
  PAGES_SHORT_USER_TOKEN,
  PAGES_USER_TOKEN,
  type Role,
} from "./directory";
import type { Page, Token } from "./server";

const admin = "300000000000001";

export function seedPages(extraPages: number): Map<string, Page> {
  const business = { id: BUSINESS_ID, name: "Example Bakery Ltd" };
  const pages = new Map<string, Page>([
    [
      PAGE_ID,
      {
        id: PAGE_ID,
        name: "Example Bakery",
        category: "Bakery",
        about: "Bread since 1921",
        profile: {
          description: "A family bakery: sourdough, rye and pastries, baked every morning.",
          website: "https://bakery.example",
          phone: "+1 555 0100",
          emails: ["hello@bakery.example"],
          hours: { mon_1_open: "07:00", mon_1_close: "18:00" },
        },
        roles: new Map([[admin, "ADMIN" as Role]]),
        assigned: new Map(),
        business,
        apps: new Map(),
      },
    ],
  ]);
  for (let i = 1; i <= extraPages; i++) {
    const id = String(200000000001000n + BigInt(i));
    pages.set(id, {
      id,
      name: `Example Bakery ${i}`,
      category: "Bakery",
      about: "",
      profile: { description: "", website: "", phone: "", emails: [], hours: {} },
      roles: new Map([[admin, "ADMIN" as Role]]),
      assigned: new Map(),
      business,
      apps: new Map(),
    });
  }
  pages.get(PAGE_ID)!.roles.set("300000000000002", "MODERATOR");
  return pages;
}

export function seedTokens(pages: Map<string, Page>, now: number): Map<string, Token> {
  const all = [
    "pages_manage_posts",
    "pages_read_engagement",
    "pages_show_list",
    "pages_manage_metadata",
    "pages_read_user_content",
    "pages_manage_ads",
  ];
  const tokens = new Map<string, Token>([
    [PAGES_USER_TOKEN, { kind: "user", userId: admin, scopes: all }],
    [PAGES_PAGE_TOKEN, { kind: "page", userId: admin, pageId: PAGE_ID, scopes: all }],
    [
      PAGES_MODERATOR_TOKEN,
      { kind: "page", userId: "300000000000002", pageId: PAGE_ID, scopes: ["pages_read_engagement", "pages_show_list"] },
    ],
    [PAGES_EXPIRED_TOKEN, { kind: "user", userId: admin, scopes: all, expiresAt: 0 }],
    [PAGES_SHORT_USER_TOKEN, { kind: "user", userId: admin, scopes: all, expiresAt: now + 3600_000 }],
    [`${PAGES_APP.id}|${PAGES_APP.secret}`, { kind: "app", scopes: [] }],
  ]);
  for (const p of pages.values()) {
    if (p.id === PAGE_ID) continue;
    tokens.set(`pages-page-token-${p.id}`, { kind: "page", userId: admin, pageId: p.id, scopes: all });
  }
  return tokens;
}
