// The site's edge script: answers /hello at the edge and passes everything else to the origin.
export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/hello") return new Response("hello from the edge (v1)");
    return fetch(request);
  },
};
