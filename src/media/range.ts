/**
 * One byte range of a `Range` header against a known size (RFC 9110 §14). R2 answers an
 * unsatisfiable range with the whole object, so the range is decided here and passed to R2 as
 * `{offset, length}`.
 */
export type RangeAnswer = { kind: "whole" } | { kind: "part"; offset: number; length: number } | { kind: "unsatisfiable" };

export function parseRange(header: string | null, size: number): RangeAnswer {
  if (header === null) return { kind: "whole" };
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  // Several ranges, other units or nonsense: the whole file (a server may ignore Range).
  if (!m || (m[1] === "" && m[2] === "")) return { kind: "whole" };
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    const length = Math.min(suffix, size);
    return { kind: "part", offset: size - length, length };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== "" && Number(m[2]) < start) return { kind: "whole" };
  if (start >= size) return { kind: "unsatisfiable" };
  return { kind: "part", offset: start, length: end - start + 1 };
}
