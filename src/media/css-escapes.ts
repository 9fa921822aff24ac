/**
 * CSS escapes decoded as a CSS tokenizer decodes them (CSS Syntax Level 3 §3.3 preprocessing and
 * §4.3.7 "consume an escaped code point"), so a check for `url(` or `@import` sees what the
 * browser will see: `u\72l(`, `\75 rl(` and `@\69mport` are `url(`, `url(` and `@import`.
 *
 * A backslash before a newline is no escape outside a string and a line continuation inside one;
 * it is dropped here with its newline, which can only join more text into a match.
 */
const HEX = /[0-9a-f]/i;
const WHITESPACE = /[ \t\n]/;

export function decodeCssEscapes(css: string): string {
  // Preprocessing: CR LF, CR and FF are one newline; NUL is U+FFFD.
  const input = css.replace(/\r\n?|\f/g, "\n").replace(/\0/g, "\uFFFD");
  let out = "";
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!;
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const next = input[i + 1];
    if (next === undefined) {
      out += "\uFFFD";
      break;
    }
    if (next === "\n") {
      i++;
      continue;
    }
    if (!HEX.test(next)) {
      // Any other code point stands for itself (one UTF-16 surrogate pair is one code point).
      const cp = input.codePointAt(i + 1)!;
      out += String.fromCodePoint(cp);
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    let j = i + 1;
    let hex = "";
    while (j < input.length && hex.length < 6 && HEX.test(input[j]!)) hex += input[j++]!;
    if (j < input.length && WHITESPACE.test(input[j]!)) j++;
    const cp = parseInt(hex, 16);
    out += cp === 0 || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ? "\uFFFD" : String.fromCodePoint(cp);
    i = j - 1;
  }
  return out;
}
