import type { Collection } from "../storage/rows";

/** Whether a collection's public JSON depends on the site's image resizing hosts: it has media fields. */
export const hasMediaFields = (c: Collection): boolean => c.fields.some((f) => f.type === "image" || f.type === "video");
