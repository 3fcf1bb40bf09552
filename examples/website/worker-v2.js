// Version 2 of the site's edge script: the same, with a header that says which version served the request.
export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/hello") return new Response("hello from the edge (v2)", { headers: { "x-edge-version": "2" } });
    return fetch(request);
  },
};
