// The demo "customer site" that `npm start` serves next to the service: a blog page
// built the way a site builder would, with a list widget and the embed script.
import { createServer } from "node:http";

export function demoBlogPage(service, token) {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Demo blog</title>
  <meta name="description" content="Posts from the open-content-edge demo site.">
  <style>
    body { font: 16px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }
    .posts { display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: 1.5rem; }
    .card img { width: 100%; aspect-ratio: 16/9; object-fit: cover; background: #eee; }
    .meta { color: #666; font-size: .875rem; }
  </style>
</head>
<body>
  <h1>Demo blog</h1>
  <div class="posts" data-oc-list="posts" data-oc-sort="-date" data-oc-limit="6">
    <article class="card">
      <a data-oc-link><img data-oc-field="cover" src="" alt=""></a>
      <h2><a data-oc-link data-oc-field="title">Post title</a></h2>
      <p data-oc-field="summary" data-oc-if="summary">Summary</p>
      <p class="meta"><span data-oc-field="author.name">Author</span> · <time data-oc-field="date" data-oc-attr-datetime="date">Date</time> · <span data-oc-field="category">Category</span></p>
    </article>
    <p data-oc-empty hidden>No posts yet.</p>
  </div>
  <script src="${service}/embed.js" data-oc-token="${token}" defer></script>
</body>
</html>`;
}

/** Serves the demo page at /blog/ (and any /blog/:slug, for client-side item pages). */
export function startDemoPages(port, service, token) {
  const html = demoBlogPage(service, token);
  const server = createServer((req, res) => {
    if ((req.url ?? "").startsWith("/blog/")) res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    else res.writeHead(302, { location: "/blog/" }).end();
  });
  return new Promise((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", () => resolve(server)));
}
