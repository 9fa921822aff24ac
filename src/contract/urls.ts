// URL is a web standard that Workers, browsers and Node all provide; the contract's tsconfig
// has neither DOM nor Workers types, so it is reached through globalThis with the one part used.
const WebUrl = (globalThis as unknown as { URL: new (value: string) => { protocol: string } }).URL;

/** An absolute http(s) URL of at most 2,048 characters: what the API takes for page and media addresses. */
export function isHttpUrl(value: string): boolean {
  try {
    const u = new WebUrl(value);
    return (u.protocol === "http:" || u.protocol === "https:") && value.length <= 2048;
  } catch {
    return false;
  }
}
