/** What the last rebuild of the sitemap and feeds produced, for the dashboard. */
export interface DocumentStats {
  at: string;
  ms: number;
  urls: number;
  feedItems: number;
  bytes: number;
}
