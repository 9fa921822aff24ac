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

const COLOURS = { pets: "#c2410c", money: "#15803d", food: "#b45309", sport: "#1d4ed8", garden: "#4d7c0f", music: "#7e22ce" };

/**
 * A demo cover: an SVG in the category's colour, 1600×900 like the sizes the seed declares.
 * Served for `/images/<category>/<n>.svg` only: the demo host is a plain image host, as most
 * customers' are (no `/cdn-cgi/image/` resizing), so the site's srcset names the original.
 */
export function demoImage(path) {
  const m = /^\/images\/([a-z]+)\/(\d+)\.svg$/.exec(path);
  if (!m) return null;
  const [, category, n] = m;
  const colour = COLOURS[category] ?? "#334155";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900" viewBox="0 0 1600 900">
  <rect width="1600" height="900" fill="${colour}"/>
  <circle cx="1250" cy="220" r="260" fill="#ffffff" fill-opacity="0.12"/>
  <circle cx="300" cy="760" r="340" fill="#000000" fill-opacity="0.10"/>
  <text x="120" y="520" font-family="system-ui, sans-serif" font-size="150" font-weight="700" fill="#ffffff">${category} #${n}</text>
</svg>`;
}

/** Serves the demo page at /blog/ (and any /blog/:slug, for client-side item pages) and its images. */
export function startDemoPages(port, service, token) {
  const html = demoBlogPage(service, token);
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const image = demoImage(path);
    if (image) res.writeHead(200, { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" }).end(image);
    else if (path.startsWith("/blog/")) res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    else res.writeHead(302, { location: "/blog/" }).end();
  });
  return new Promise((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", () => resolve(server)));
}
