/**
 * Examples in the OpenAPI document: real answers of the service, recorded once from a test site.
 * The contract test checks each against its schema, so they stay true.
 */
export const publicItem = {
  id: "it_nbo7eomob5fsg7khisqr",
  slug: "puppy-training",
  collection: "posts",
  publishedAt: "2026-11-23T20:42:49.155Z",
  updatedAt: "2026-11-23T20:42:49.155Z",
  data: {
    title: "Puppy training for beginners",
    summary: "Sit, stay and come in a week.",
    body: "<p>Start with <strong>sit</strong>.</p>",
    views: 42,
    featured: true,
    date: "2024-05-01T00:00:00.000Z",
    cover: {
      mediaId: "md_q3uf2e2f573uno6l3btu",
      url: "https://images.example.com/puppy.jpg",
      srcset:
        "https://images.example.com/cdn-cgi/image/width=320,format=auto/puppy.jpg 320w, https://images.example.com/cdn-cgi/image/width=640,format=auto/puppy.jpg 640w, https://images.example.com/cdn-cgi/image/width=960,format=auto/puppy.jpg 960w, https://images.example.com/cdn-cgi/image/width=1200,format=auto/puppy.jpg 1200w",
      alt: "A puppy sitting",
      width: 1200,
      height: 800,
    },
    author: {
      id: "it_r647ztym7xjljm2gl2aa",
      slug: "ada",
      collection: "authors",
      publishedAt: "2026-11-23T20:42:49.151Z",
      updatedAt: "2026-11-23T20:42:49.151Z",
      data: { name: "Ada Lovelace" },
    },
  },
};
export const list = { items: [publicItem], page: 1, limit: 1, total: 1, totalPages: 1 };

export const schema = {
  schema: {
    posts: {
      title: "text",
      summary: "text",
      body: "richText",
      views: "number",
      featured: "boolean",
      date: "date",
      website: "link",
      cover: "image",
      clip: "video",
      author: "reference",
      coauthors: "references",
      notes: "text",
      kind: "option",
    },
    authors: { name: "text" },
  },
  labels: { posts: { kind: { "how-to": "How-to", news: "News" } } },
};
export const search = { results: [{ item: publicItem, score: 0.6735 }] };

export const dashboardItem = {
  id: "it_nbo7eomob5fsg7khisqr",
  revision: 3,
  slug: "puppy-training",
  collection: "posts",
  status: "published",
  publishedAt: "2026-11-23T20:42:49.155Z",
  createdAt: "2026-11-23T20:42:49.155Z",
  updatedAt: "2026-11-23T20:42:49.155Z",
  createdBy: "ac_x7kq2mzr5tpwbn4c",
  data: {
    title: "Puppy training for beginners",
    summary: "Sit, stay and come in a week.",
    body: "<p>Start with <strong>sit</strong>.</p>",
    views: 42,
    featured: true,
    date: "2024-05-01T00:00:00.000Z",
    cover: "md_q3uf2e2f573uno6l3btu",
    author: "it_r647ztym7xjljm2gl2aa",
  },
  searchIndex: { state: "pending" },
  schedule: null,
  pendingChanges: null,
};
export const createdSite = {
  id: "gjjqojsqusb4dcze",
  name: "Test site",
  workspaceId: "ws_da4qy726fkngzhod",
  plan: "pro",
  token: "pk_gjjqojsqusb4dcze_nzt2opgeacwfqyidldcib72w",
  imageResizingHosts: [],
  features: { advancedLists: true, serverRendering: false },
  flags: { aiSearch: true },
  createdAt: "2026-11-23T20:42:49.137Z",
  updatedAt: "2026-11-23T20:42:49.137Z",
  adminKey: "sk_gjjqojsqusb4dcze_uttb32viig3dgcwosnddb7ka5ocbgis4xkqjdbff",
};
export const collection = {
  id: "co_zyzxji53aoreewbs",
  slug: "authors",
  name: "Authors",
  fields: [{ key: "name", type: "text", indexed: true, required: true }],
  createdAt: "2026-11-23T20:42:49.141Z",
  updatedAt: "2026-11-23T20:42:49.141Z",
  titleField: "name",
  seoDefaults: { titleField: "name", descriptionField: null, imageField: null, authorField: null },
};
export const unknownFilter = {
  message: 'Cannot use filter[titel]: "titel" is not a field of "posts". Did you mean "title"?',
  details: {
    parameter: "filter[titel]",
    field: "titel",
    allowed: ["publishedAt", "updatedAt", "slug", "title", "summary", "views", "featured", "date", "author"],
    suggestion: "title",
  },
};
export const invalidCollection = {
  message: "Invalid collection: fields.0.key: is reserved (id, slug, collection, status, publishedAt, updatedAt, createdAt)",
  details: {
    issues: [
      { path: "fields.0.key", message: "is reserved (id, slug, collection, status, publishedAt, updatedAt, createdAt)" },
      {
        path: "fields.0.type",
        message:
          'Invalid option: expected one of "text"|"richText"|"number"|"boolean"|"date"|"link"|"image"|"video"|"reference"|"references"',
      },
    ],
  },
};
