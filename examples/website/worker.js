// The site's edge script: answers /hello at the edge and passes everything else to the origin.
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    // A visitor's session, read through the script's KV binding (SESSIONS).
    if (url.pathname === "/edge/session") return new Response((await env.SESSIONS.get(url.searchParams.get("id") ?? "")) ?? "no session");
    if (url.pathname === "/hello") return new Response("hello from the edge (v1)");
    return fetch(request);
  },
};
