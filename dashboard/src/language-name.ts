/** "fr" → "French", in the viewer's language; the code itself where the browser does not know it. */
export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames([navigator.language], { type: "language" }).of(code) ?? code;
  } catch {
    return code;
  }
}
