/**
 * The JSON value helpers the host modules and the hook-file writers share. Kept free of imports,
 * so that a host module can use them on a hook's hot path.
 *
 * @module
 */

/** A JSON object. */
export type JsonObject = { [key: string]: unknown };

/**
 * Whether a value is a plain JSON object (not `null`, not an array).
 *
 * @param value Any value.
 * @returns `true` for an object.
 */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Structural equality of JSON values; object key order does not matter.
 *
 * @param a One value.
 * @param b The other.
 * @returns `true` when they hold the same data.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isJsonObject(a)) {
    if (!isJsonObject(b)) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length &&
      ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}
