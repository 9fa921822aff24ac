/** The customer's reverse-proxy Worker (proxy/src/index.ts), as text, inlined by scripts/build.mjs. */
declare module "virtual:proxy-source" {
  const source: string;
  export default source;
}

declare module "*.css";
