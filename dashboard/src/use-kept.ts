/**
 * A screen's view choice (a filter, a sort order, a page) kept for this browser tab: a reload, Back
 * and coming back later in the tab show the list as it was left. sessionStorage only, so another
 * tab starts afresh and nothing outlives the tab.
 */
import { useState } from "preact/hooks";

const PREFIX = "open-content-edge:view:";

function read<T extends string | number>(key: string, initial: T): T {
  try {
    const raw = sessionStorage.getItem(PREFIX + key);
    const kept: unknown = raw === null ? null : JSON.parse(raw);
    return typeof kept === typeof initial ? (kept as T) : initial;
  } catch {
    return initial;
  }
}

export function useKept<T extends string | number>(key: string, initial: T): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => read(key, initial));
  const set = (next: T) => {
    setValue(next);
    try {
      sessionStorage.setItem(PREFIX + key, JSON.stringify(next));
    } catch {
      // Storage refused (private mode): the choice lasts while the screen is open.
    }
  };
  return [value, set];
}
