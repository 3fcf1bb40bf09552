// The site's edge script: answers /status at the edge and passes everything else to the origin.
export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/status") return new Response("ok");
    return fetch(request);
  },
};
