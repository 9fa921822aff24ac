/** Account: who this is, their passkeys (account-passkeys.tsx), and the sessions where they are signed in (end any). */
import { useState } from "preact/hooks";
import { browserName } from "../browser-name";
import { call, client } from "../api";
import { session, signOut } from "../session";
import { DataTable } from "../data-table";
import { ErrorNotice, Heading, when } from "../ui";
import { useLoad } from "../use-load";
import { PasskeysPanel } from "./account-passkeys";

export function AccountScreen() {
  const s = session.value;
  const [ending, setEnding] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const list = useLoad(() => call(client.GET("/account/sessions")), []);
  const end = async (id: string, current: boolean) => {
    setEnding(id);
    setError(null);
    try {
      if (current) return void (await signOut());
      await call(client.DELETE("/account/sessions/{sessionId}", { params: { path: { sessionId: id } } }));
      list.reload();
    } catch (err) {
      setError(err);
    } finally {
      setEnding(null);
    }
  };
  return (
    <>
      <Heading>Your account</Heading>
      {s?.account && (
        <div class="card">
          <p>
            <strong>{s.account.name}</strong> · {s.account.email}
          </p>
          <p class="small-text">Account created {when(s.account.createdAt)}.</p>
        </div>
      )}
      <PasskeysPanel />
      <section class="card" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        <p>Everywhere you are signed in. End any you do not recognise, then change your password.</p>
        <ErrorNotice error={error ?? list.error} />
        <DataTable
          label="Sessions"
          columns={["Browser", "From", "Signed in", "Last used", { hidden: "Actions" }]}
          rows={list.data?.sessions ?? null}
          error={list.error}
          loading="Loading sessions…"
          empty="You are not signed in anywhere else."
          row={(x) => (
            <tr key={x.id}>
              <td>
                <span title={x.userAgent ?? undefined}>{browserName(x.userAgent)}</span>
                {x.current && <strong> (this browser)</strong>}
              </td>
              <td>{[x.ip, x.country].filter(Boolean).join(", ") || "—"}</td>
              <td>{when(x.createdAt)}</td>
              <td>{when(x.lastSeenAt)}</td>
              <td>
                <button
                  type="button"
                  class="secondary small"
                  disabled={ending !== null}
                  aria-label={x.current ? "Sign out of this browser" : `End session signed in ${when(x.createdAt)}`}
                  onClick={() => void end(x.id, x.current)}
                >
                  {ending === x.id ? "Ending…" : x.current ? "Sign out" : "End"}
                </button>
              </td>
            </tr>
          )}
        />
      </section>
    </>
  );
}
