/**
 * The capture form's state: its values (useForm, saved by PUT …/ssr/capture) and, when a new
 * capture would take pages away from the current one (another address or collection), what it
 * would replace, to be confirmed before anything is sent.
 */
import { useState } from "preact/hooks";
import { call, client } from "../../api";
import type { Capture } from "../../capture-types";
import { collections, inSite } from "../../site-state";
import type { Submit } from "../../ui";
import { useForm } from "../../use-form";

/** What a capture at another address or of another collection takes away from the current one. */
export interface Replacing {
  path: string;
  collection: string;
  pages: number;
  newPath: string;
}

const basePathOf = (u: string) => {
  try {
    const p = new URL(u).pathname;
    return p.endsWith("/") ? p : `${p}/`;
  } catch {
    return "";
  }
};

export function useCaptureForm(e: Capture | null, onCaptured: (c: Capture) => void) {
  const list = collections.value ?? [];
  const form = useForm(
    {
      pageUrl: e?.pageUrl ?? "",
      publicUrl: e && e.publicUrl !== e.pageUrl ? e.publicUrl : "",
      collection: e?.collection ?? list[0]?.slug ?? "",
      showsList: e?.showsList ?? true,
      seo: e?.seo ?? ({} as Capture["seo"]),
      secret: "",
    },
    ({ pageUrl, publicUrl, collection, showsList, seo, secret }) => {
      const seoBody = Object.fromEntries(Object.entries(seo).filter(([, v]) => v !== "" && v !== undefined));
      return call(
        client.PUT("/sites/{siteId}/ssr/capture", {
          params: { path: inSite() },
          body: {
            pageUrl: pageUrl.trim(),
            ...(publicUrl.trim() ? { publicUrl: publicUrl.trim() } : {}),
            collection,
            showsList,
            ...(Object.keys(seoBody).length ? { seo: seoBody } : {}),
            ...(secret ? { webhookSigningSecret: secret } : {}),
          },
        }),
      );
    },
    { onSaved: (r) => onCaptured(r.capture) },
  );
  const { pageUrl, publicUrl, collection } = form.values;

  const [replacing, setReplacing] = useState<Replacing | null>(null);
  const submit = async (ev: Submit) => {
    ev.preventDefault();
    const newPath = basePathOf(publicUrl.trim() || pageUrl.trim());
    if (e && (e.basePath !== newPath || e.collection !== collection)) {
      let published = 0;
      try {
        if (e.collection)
          published = (
            await call(
              client.GET("/sites/{siteId}/collections/{slug}/items", {
                params: { path: inSite({ slug: e.collection }), query: { status: "published", limit: 1 } },
              }),
            )
          ).total;
      } catch {
        published = 0;
      }
      setReplacing({
        path: new URL(e.publicUrl).origin + e.basePath,
        collection: list.find((c) => c.slug === e.collection)?.name ?? e.collection ?? "a deleted collection",
        pages: published + (e.showsList ? 1 : 0),
        newPath,
      });
      return;
    }
    captureNow();
  };
  const captureNow = () => void form.submit();
  return { form, list, submit, captureNow, replacing, setReplacing };
}

export type CaptureFormState = ReturnType<typeof useCaptureForm>["form"];
