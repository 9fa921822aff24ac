import { useEffect, useRef, useState } from "preact/hooks";
import { ApiFailure, call, client } from "../api";
import { hostnameOrigin } from "../hostname-url";
import { PlanGate } from "../plan-gate";
import { ProxyGuide } from "../proxy-guide";
import { RoleGate } from "../role-gate";
import { can, inSite, site } from "../site-state";
import type { CustomHostname } from "../types";
import { Confirm, Copy, ErrorNotice, Field, Heading, Notice, type Submit, when } from "../ui";
import { useForm } from "../use-form";

const registerHostname = (hostname: string) =>
  call(client.POST("/sites/{siteId}/ssr/custom-hostname", { params: { path: inSite() }, body: { hostname } }));

const STATUS_WORDS: Record<CustomHostname["sslStatus"], { title: string; text: string }> = {
  pending_validation: {
    title: "Waiting for your DNS records",
    text: "Add both records below at your DNS provider: the CNAME sends visitors here, the TXT record proves the hostname is yours. Once they are visible (usually a few minutes, at most a day), the certificate is issued automatically.",
  },
  pending_issuance: {
    title: "Issuing the certificate",
    text: "Your DNS record was found; the HTTPS certificate is being issued. This usually takes a few minutes.",
  },
  active: { title: "Active", text: "Visitors reach your rendered pages on this hostname, over HTTPS." },
};

/**
 * A hostname of two labels (example.com) is most likely an apex that serves a whole site
 * already; `*.localhost` is this machine, for trying things out.
 */
const isApex = (h: string) => {
  const labels = h.toLowerCase().replace(/\.$/, "").split(".");
  return labels.length <= 2 && labels.at(-1) !== "localhost";
};

export function Domains() {
  const s = site.value!;
  const [record, setRecord] = useState<CustomHostname | null>(null);
  const [replacing, setReplacing] = useState<CustomHostname | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [notConfigured, setNotConfigured] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [apexCheck, setApexCheck] = useState(false);
  const [detaching, setDetaching] = useState(false);

  const latest = useRef(0);
  const load = async () => {
    // Only the newest check may set the record: an older answer arriving late must not undo a registration.
    const n = ++latest.current;
    try {
      // No hostname yet is `customHostname: null` here, not a 404.
      const r = await call(client.GET("/sites/{siteId}/ssr/custom-hostname/status", { params: { path: inSite() } }));
      if (n !== latest.current) return;
      if (r.available === false) setNotConfigured(true);
      setRecord(r.customHostname);
      setReplacing(r.replacing ?? null);
    } catch (err) {
      if (n !== latest.current) return;
      if (err instanceof ApiFailure && err.error.code === "not_configured") setNotConfigured(true);
      else setError(err);
      setRecord(null);
    }
    setLoaded(true);
  };
  useEffect(() => void load(), [s.id]);
  // While a hostname is pending, its status is checked again by itself.
  useEffect(() => {
    if (!record || record.sslStatus === "active") return;
    const t = setInterval(() => void load(), 3000);
    return () => clearInterval(t);
  }, [record?.hostname, record?.sslStatus]);

  const form = useForm(
    { hostname: "" },
    ({ hostname }) => {
      setError(null);
      return registerHostname(hostname.trim());
    },
    {
      onSaved: (r) => {
        latest.current++;
        setRecord(r.customHostname);
        form.reset({ hostname: "" });
        void load();
      },
      failed: (err) => {
        if (err instanceof ApiFailure && err.error.code === "not_configured") setNotConfigured(true);
        return false;
      },
    },
  );
  const hostname = form.values.hostname;
  if (!s.features.serverRendering) return <PlanGate title="Domains" needs="seo_engine" what="A custom domain for your rendered pages" />;

  // Registering the same hostname again makes the service look at its DNS records now.
  const [checking, setChecking] = useState(false);
  const checkNow = async () => {
    if (!record) return;
    setError(null);
    setChecking(true);
    try {
      const r = await registerHostname(record.hostname);
      latest.current++;
      setRecord(r.customHostname);
    } catch (err) {
      setError(err);
    } finally {
      setChecking(false);
    }
  };
  const submit = (e: Submit) => {
    e.preventDefault();
    if (isApex(hostname.trim())) setApexCheck(true);
    else void form.submit();
  };

  return (
    <section>
      <Heading>Domains</Heading>
      <ErrorNotice error={notConfigured ? null : (error ?? form.error)} />
      {notConfigured ? (
        <div class="card">
          <h2>Custom domains are not available on this deployment</h2>
          <p>Serve your rendered pages under a path of your own site instead, with a small Worker in your own Cloudflare account:</p>
          <ProxyGuide token={s.token} />
        </div>
      ) : (
        loaded && (
          <>
            {record && <HostnameCard record={record} onDetach={() => setDetaching(true)} onCheck={checkNow} checking={checking} />}
            {replacing && (
              <Notice>
                {replacing.hostname} keeps serving your pages until {record?.hostname} is active, then it is released.
              </Notice>
            )}
            <RoleGate permission="domains.manage" what="this site's domains">
              <form class="card form" onSubmit={submit}>
                <h2>{record ? "Use another hostname" : "Connect a custom domain"}</h2>
                <p>
                  Use a <strong>dedicated subdomain</strong> such as <code>blog.example.com</code>: the whole hostname is given to your
                  rendered pages (<code>/</code> is the list, <code>/:slug</code> an item, plus sitemap and feeds).
                </p>
                <Field label="Hostname" hint="Without https:// or a path, e.g. blog.example.com" error={form.errors.hostname}>
                  {(id, d) => (
                    <input
                      id={id}
                      required
                      value={hostname}
                      aria-describedby={d}
                      onInput={(e) => form.set("hostname", e.currentTarget.value)}
                    />
                  )}
                </Field>
                <button type="submit" disabled={form.pending}>
                  Connect hostname
                </button>
              </form>
            </RoleGate>
          </>
        )
      )}
      <Confirm
        open={apexCheck}
        title={`Use ${hostname.trim()} for your pages?`}
        confirmLabel="Use it anyway"
        danger
        onClose={(ok) => {
          setApexCheck(false);
          if (ok) void form.submit();
        }}
      >
        <p>
          <code>{hostname.trim()}</code> looks like a whole domain. A custom hostname takes over <strong>every path</strong> of that
          hostname, so any other pages on it stop working. A dedicated subdomain such as <code>blog.{hostname.trim()}</code> is the right
          choice.
        </p>
      </Confirm>
      {record && (
        <Confirm
          open={detaching}
          title={`Detach ${record.hostname}?`}
          confirmLabel="Detach hostname"
          danger
          onClose={async (ok) => {
            setDetaching(false);
            if (!ok) return;
            try {
              await call(client.DELETE("/sites/{siteId}/ssr/custom-hostname", { params: { path: inSite() } }));
              setRecord(null);
              setReplacing(null);
            } catch (err) {
              setError(err);
            }
          }}
        >
          <p>Your pages stop being served on {record.hostname} at once. You can connect it again later.</p>
        </Confirm>
      )}
    </section>
  );
}

function HostnameCard(props: { record: CustomHostname; onDetach: () => void; onCheck: () => void; checking: boolean }) {
  const r = props.record;
  const words = STATUS_WORDS[r.sslStatus];
  const row = `${r.hostname}  CNAME  ${r.cnameTarget}`;
  const txt = r.ownershipVerification;
  return (
    <div class="card">
      <h2>{r.hostname}</h2>
      <p role="status" class={`status ${r.sslStatus}`}>
        <strong>{words.title}</strong>
        {r.sslStatus === "active" ? ` since ${when(r.updatedAt)}.` : ""} {words.text}
      </p>
      {r.sslStatus === "active" ? (
        <p>
          Open your pages: <a href={`${hostnameOrigin(r.hostname)}/`}>{hostnameOrigin(r.hostname)}/</a>
        </p>
      ) : (
        <>
          <h3>Add these DNS records</h3>
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">The DNS records to add</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Target or value</th>
                  <th scope="col">
                    <span class="visually-hidden">Copy</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <td>
                    <code>{r.hostname}</code>
                  </td>
                  <td>CNAME</td>
                  <td>
                    <code>{r.cnameTarget}</code>
                  </td>
                  <td>
                    <Copy text={row} label="Copy the CNAME record" />
                  </td>
                </tr>
                {txt && (
                  <tr>
                    <td>
                      <code>{txt.name}</code>
                    </td>
                    <td>TXT</td>
                    <td>
                      <code>{txt.value}</code> {txt.verified ? <span class="muted">(found)</span> : null}
                    </td>
                    <td>
                      <Copy text={`${txt.name}  TXT  ${txt.value}`} label="Copy the TXT record" />
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
          {r.missing && r.missing.length > 0 && (
            <>
              <p>Still waiting for:</p>
              <ul>
                {r.missing.map((m) => (
                  <li key={m}>
                    <Linked text={m} />
                  </li>
                ))}
              </ul>
            </>
          )}
          <p class="muted">
            This page shows new results by itself every few seconds; the service looks at your DNS records again every few minutes, or now:
          </p>
          <button type="button" onClick={props.onCheck} disabled={props.checking} aria-busy={props.checking}>
            {props.checking ? "Checking your DNS records…" : "Check DNS records now"}
          </button>
          <p class="muted">Registered {when(r.createdAt)}.</p>
        </>
      )}
      {/* Detaching is for roles that manage domains; the others are told so above the form. */}
      {can("domains.manage") && (
        <button type="button" class="danger" onClick={props.onDetach}>
          Detach {r.hostname}
        </button>
      )}
    </div>
  );
}

/** The provider's words, with any address in them a link (locally, opening it validates the hostname). */
function Linked(props: { text: string }) {
  const parts = props.text.split(/(https?:\/\/[^\s)]+)/);
  return (
    <>
      {parts.map((p, i) =>
        /^https?:\/\//.test(p) ? (
          <a key={i} href={p} target="_blank" rel="noopener noreferrer">
            {p}
          </a>
        ) : (
          p
        ),
      )}
    </>
  );
}
