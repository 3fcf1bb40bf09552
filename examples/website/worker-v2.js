// Version 2 of the site's edge script: the same, with a header that says which version served the request.
// A Durable Object: one counter per page, its count kept in the object's own storage (made by the migration v1).
export class Visits {
  constructor(state) {
    this.state = state;
  }
  async fetch() {
    const count = ((await this.state.storage.get("count")) ?? 0) + 1;
    await this.state.storage.put("count", count);
    return new Response(String(count));
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    // How often a page was seen, counted by that page's Durable Object (VISITS).
    if (url.pathname === "/edge/visits") return env.VISITS.get(env.VISITS.idFromName(url.searchParams.get("page") ?? "/")).fetch(request);
    // A visitor's session, read through the script's KV binding (SESSIONS).
    if (url.pathname === "/edge/session") return new Response((await env.SESSIONS.get(url.searchParams.get("id") ?? "")) ?? "no session");
    // Today's menu from the site's files (R2), and an order from its database (D1).
    if (url.pathname === "/edge/menu") {
      const menu = await env.FILES.get("menu.txt");
      const order = await env.ORDERS.prepare("select item from orders where id = ?")
        .bind(Number(url.searchParams.get("order")))
        .first("item");
      return new Response(`${menu ? await menu.text() : "no menu"}; order: ${order ?? "none"}`);
    }
    if (url.pathname === "/hello") return new Response("hello from the edge (v2)", { headers: { "x-edge-version": "2" } });
    return fetch(request);
  },
};
