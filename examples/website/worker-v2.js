// Version 2 of the site's edge script: the same, with a header that says which version served the request.
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    // A visitor's session, read through the script's KV binding (SESSIONS).
    if (url.pathname === "/edge/session") return new Response((await env.SESSIONS.get(url.searchParams.get("id") ?? "")) ?? "no session");
    // Today's menu from the site's files (R2), and an order from its database (D1).
    if (url.pathname === "/edge/menu") {
      const menu = await env.FILES.get("menu.txt");
      const order = await env.ORDERS.prepare("select item from orders where id = ?").bind(Number(url.searchParams.get("order"))).first("item");
      return new Response(`${menu ? await menu.text() : "no menu"}; order: ${order ?? "none"}`);
    }
    if (url.pathname === "/hello") return new Response("hello from the edge (v2)", { headers: { "x-edge-version": "2" } });
    return fetch(request);
  },
};
