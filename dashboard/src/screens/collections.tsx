import { href } from "../router";
import { can, collections, site } from "../site-state";
import { Heading } from "../ui";

export function Collections() {
  const s = site.value!;
  const list = collections.value ?? [];
  // A role that may not change collections sees their fields; it is not offered to edit or add them.
  const manage = can("collections.manage");
  return (
    <section>
      <Heading
        actions={
          manage && (
            <a class="button" href={href(s.id, "collection", "new")}>
              New collection
            </a>
          )
        }
      >
        Collections
      </Heading>
      {list.length === 0 ? (
        <p class="empty">
          No collections yet. A collection is a kind of content, such as blog posts, products or jobs:{" "}
          {manage ? "choose New collection, name its fields, then add items to it." : "an Administrator or the Owner creates them."}
        </p>
      ) : (
        <ul class="collection-list">
          {list.map((c) => (
            <li key={c.id} class="card">
              <h2>
                <a href={href(s.id, "items", c.slug)}>{c.name}</a>
              </h2>
              <p class="muted">
                <code>{c.slug}</code> · {c.fields.length} fields
              </p>
              <div class="actions">
                <a class="button" href={href(s.id, "items", c.slug)}>
                  Items
                </a>
                <a class="button secondary" href={href(s.id, "collection", c.slug)}>
                  {manage ? "Edit fields of" : "See fields of"} {c.name}
                </a>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
