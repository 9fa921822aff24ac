import type { Collection } from "../storage/rows";
import type { Field } from "../../../src/contract/fields";

/** A field whose stored media ids the public JSON expands to MediaRefs: image, video, gallery. */
export const isMediaField = (f: Pick<Field, "type">): boolean => f.type === "image" || f.type === "video" || f.type === "gallery";

/** Whether a collection's public JSON depends on the site's image resizing hosts: it has media fields. */
export const hasMediaFields = (c: Collection): boolean => c.fields.some(isMediaField);
