/**
 * The local vector index's compact encoding: a unit vector as one int8 code per component and
 * the scale that turns the codes back into the vector (component ≈ code × scale). 384 bytes and a
 * float for a 384-dimension vector instead of 1,536 bytes of float32, on disk and in memory; the
 * cosine of a row with its codes' vector is above 0.9999 for the models' vectors, so rankings and
 * scores move in the fourth decimal at most. A query keeps more precision: int16 codes, no larger
 * than lets a sum of d products of int8 and int16 codes fit an int32 (the scan's accumulator).
 */

export interface Codes<T extends Int8Array | Int16Array> {
  codes: T;
  /** component ≈ code × scale: the codes' vector at unit length (0 for a zero vector) */
  scale: number;
}

const INT8_MAX = 127;
const INT32_MAX = 2 ** 31 - 1;

/**
 * The scale that makes the codes' vector unit length, so a dot product of two codes' vectors is
 * exactly the cosine of the directions they keep (rounding changes a vector's length a little).
 */
function unitScale(codes: Int8Array | Int16Array): number {
  let sum = 0;
  for (const c of codes) sum += c * c;
  return sum > 0 ? 1 / Math.sqrt(sum) : 0;
}

function maxAbs(v: Float32Array): number {
  let max = 0;
  for (const x of v) max = Math.max(max, Math.abs(x));
  return max;
}

/** `unit` as codes no larger than `top` in an array made by `make`. */
function codesOf<T extends Int8Array | Int16Array>(unit: Float32Array, top: number, make: (n: number) => T): Codes<T> {
  const max = maxAbs(unit);
  const codes = make(unit.length);
  if (max === 0) return { codes, scale: 0 };
  const k = top / max;
  for (let i = 0; i < unit.length; i++) codes[i] = Math.round(unit[i]! * k);
  return { codes, scale: unitScale(codes) };
}

/** A stored row's codes. */
export const rowCodes = (unit: Float32Array): Codes<Int8Array> => codesOf(unit, INT8_MAX, (n) => new Int8Array(n));

/** A query's codes, sized so the scan's int32 sums cannot overflow for `dimensions` components. */
export const queryCodes = (unit: Float32Array, dimensions: number): Codes<Int16Array> =>
  codesOf(unit, Math.min(32_767, Math.floor(INT32_MAX / (INT8_MAX * Math.max(1, dimensions)))), (n) => new Int16Array(n));

/** The vector the codes stand for. */
export function decode({ codes, scale }: Codes<Int8Array>): Float32Array {
  return Float32Array.from(codes, (c) => c * scale);
}
