/** SVG is active content: sanitised on upload (rebuilt from an allowlist) and always served sandboxed. */
import { beforeAll, describe, expect, it } from "vitest";
import { newSite, type TestSite } from "../helpers";
import { get, storedKeys, upload, uploaded } from "./helpers";

const enc = (s: string) => new TextEncoder().encode(s);
let site: TestSite;
beforeAll(async () => {
  site = await newSite("pro");
});

const HOSTILE = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 100" width="100" height="100" onload="alert(1)">
<script>alert(2)</script><script type="text/javascript"><![CDATA[ fetch('/sites') ]]></script>
<foreignObject width="100" height="100"><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example/"></iframe></body></foreignObject>
<image href="https://evil.example/track.png" width="10" height="10"/>
<use xlink:href="https://evil.example/sprite.svg#a"/>
<a href="javascript:alert(4)"><text x="1" y="20">click</text></a>
<rect width="50" height="50" fill="url(#g)" style="fill:url(https://evil.example/q)" onclick="alert(5)"/>
<linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient>
<set attributeName="onmouseover" to="alert(6)"/><animate attributeName="href" to="javascript:alert(7)"/>
<x:script xmlns:x="http://www.w3.org/2000/svg">alert(8)</x:script>
<circle cx="50" cy="50" r="20" fill="#2a6"/>
<use href="#g"/>
</svg>`;

describe("malicious SVG", () => {
  it("script, handlers, foreignObject and outside references are gone; the drawing stays", async () => {
    const { media } = await uploaded(await upload(site, enc(HOSTILE), "evil.svg"));
    expect(media.type).toBe("image/svg+xml");
    expect([media.width, media.height]).toEqual([100, 100]);
    const r = await get(media.url);
    expect(r.headers.get("content-type")).toBe("image/svg+xml");
    expect(r.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    const stored = await r.text();
    expect(stored).not.toMatch(/<script/i);
    expect(stored).not.toMatch(/\son[a-z]+=/i);
    expect(stored).not.toMatch(/foreignObject|iframe/i);
    expect(stored).not.toMatch(/evil\.example|javascript:/i);
    expect(stored).not.toMatch(/<set|<animate|<a[\s>]/i);
    expect(stored).not.toMatch(/alert\(/);
    // What is kept: the shapes and same-document references.
    expect(stored).toContain('<circle cx="50" cy="50" r="20" fill="#2a6">');
    expect(stored).toContain('fill="url(#g)"');
    expect(stored).toContain('<use href="#g">');
  });

  it("references outside the file written with CSS escapes are removed from attributes", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">
<linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient>
<rect width="1" height="1" fill="u\\72l(https://evil.example/a)"/>
<rect width="2" height="2" fill="\\75 rl(https://evil.example/b)"/>
<rect width="3" height="3" fill="\\55\\52\\4c(https://evil.example/c)"/>
<rect width="4" height="4" fill="u\\r\\l(https://evil.example/d)"/>
<rect width="5" height="5" fill="u\\000072 l(https://evil.example/e)"/>
<rect width="6" height="6" fill="u\\72l(#g)"/>
</svg>`;
    const { media } = await uploaded(await upload(site, enc(svg), "escaped.svg"));
    const stored = await (await get(media.url)).text();
    expect(stored).not.toContain("evil.example");
    for (const w of [1, 2, 3, 4, 5]) expect(stored).toContain(`<rect width="${w}" height="${w}">`);
    // An escaped reference inside the file is still one.
    expect(stored).toContain(String.raw`<rect width="6" height="6" fill="u\72l(#g)">`);
  });

  const refused: [string, string][] = [
    ["DTD entities", `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "boom">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>`],
    [
      "a stylesheet processing instruction",
      `<?xml-stylesheet href="https://evil.example/x.css"?><svg xmlns="http://www.w3.org/2000/svg"/>`,
    ],
    ["an undefined entity", `<svg xmlns="http://www.w3.org/2000/svg"><text>&nbsp;</text></svg>`],
    ["badly nested XML", `<svg xmlns="http://www.w3.org/2000/svg"><g></svg>`],
    ["no SVG namespace", `<svg><circle r="1"/></svg>`],
    ["@import in a style element", `<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://evil.example/x.css);</style></svg>`],
    // CSS escapes (CSS Syntax §4.3.7) are what the browser reads: decoded before the check.
    [
      "@import written with a hex escape",
      `<svg xmlns="http://www.w3.org/2000/svg"><style>@\\69mport "https://evil.example/x.css";</style></svg>`,
    ],
    [
      "url( written with a hex escape and its space",
      `<svg xmlns="http://www.w3.org/2000/svg"><style>rect{fill:\\75 rl(https://evil.example/y)}</style></svg>`,
    ],
    [
      "url( written with a six-digit escape and a plain one",
      `<svg xmlns="http://www.w3.org/2000/svg"><style>rect{fill:\\000075\\r\\l(https://evil.example/y)}</style></svg>`,
    ],
    [
      "@import split by an element inside the style",
      `<svg xmlns="http://www.w3.org/2000/svg"><style>@imp<desc/>ort "https://evil.example/x.css";</style></svg>`,
    ],
  ];
  for (const [what, svg] of refused) {
    it(`${what}: 415 saying why, nothing stored`, async () => {
      const other = await newSite("pro");
      const res = await upload(other, enc(svg), "x.svg");
      expect(res.status).toBe(415);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("unsupported_media_type");
      expect(body.error.message).toMatch(/SVG/);
      expect(await storedKeys(other.id)).toEqual([]);
    });
  }
});
